import CLI
import FeedRuntime
import Outputs
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGHUP, the daemon's "reread your configuration": the config file's subscription (`symbols`,
/// and `assets` and `venues` where they decide it) applied to the running feeds with
/// `Feed.replace(with:)`, between `RELOADING=1` and `READY=1` under systemd. Nothing else of the
/// file is applied: the rest needs a restart.
///
/// As at start, symbols from the command line or the environment outrank the file: then a
/// reload changes nothing, which is said once. A file that no longer parses, or whose
/// subscription the run cannot take (other venues than it follows), changes nothing and is said
/// as an error; the run goes on with its subscription. Without a config file, SIGHUP is said and
/// ignored — never the end of the run it used to be.
final class ConfigReload: Sendable {
  /// What a reload can change.
  enum Target: Sendable {
    /// The subscriptions of a live run's venues.
    case feeds(FeedGroup)
    /// Nothing, for this reason (`serve` follows what its clients ask for).
    case nothing(String)
  }

  /// Why a reload changed nothing.
  private enum Refusal: Error {
    /// No config file is in use (no such file at the default location, or no location at all).
    case noFile(String)
    /// The file cannot be used (the error names it).
    case unusable(String)
  }

  private let context: RunContext
  private let target: Target
  private let service: ServiceSupervisor?
  private let diagnostics: Diagnostics
  private let saidFixed = Atomic(false)
  private let observer = Mutex<SignalObserver?>(nil)

  /// Reloads on every SIGHUP until `cancel()`.
  static func watch(
    _ context: RunContext, _ target: Target, service: ServiceSupervisor?, diagnostics: Diagnostics
  ) -> ConfigReload {
    let reload = ConfigReload(context: context, target: target, service: service, diagnostics: diagnostics)
    let observer = SignalObserver([SIGHUP], label: "ticker.reload") { [weak reload] _ in reload?.reload() }
    reload.observer.withLock { $0 = observer }
    return reload
  }

  private init(context: RunContext, target: Target, service: ServiceSupervisor?, diagnostics: Diagnostics) {
    self.context = context
    self.target = target
    self.service = service
    self.diagnostics = diagnostics
  }

  func cancel() { observer.withLock { $0?.cancel() } }

  /// One SIGHUP (several that came at once are one reload of the file as it is now).
  func reload() {
    service?.reloading()
    defer { service?.reloaded() }
    guard case .feeds(let group) = target else {
      if case .nothing(let why) = target { diagnostics.note("SIGHUP: \(why)") }
      return
    }
    let config: TickerConfig
    switch reread() {
    case .success(let reread): config = reread
    case .failure(.noFile(let why)):
      diagnostics.note("SIGHUP ignored: \(why)")
      return
    case .failure(.unusable(let problem)):
      diagnostics.error("SIGHUP: cannot reload \(problem); keeping the subscription")
      return
    }
    if let fixed = Self.fixedBy(config) {
      if !saidFixed.exchange(true, ordering: .relaxed) {
        diagnostics.note(
          "SIGHUP: the symbols come from \(fixed.rawValue), which outranks the config file: "
            + "a reload does not change them")
      }
      return
    }
    apply(config, to: group)
  }

  /// The file's subscription to each venue's feed; refused whole when it names other venues.
  private func apply(_ config: TickerConfig, to group: FeedGroup) {
    let plan: VenuePlan
    switch VenuePlan.make(config) {
    case .success(let made): plan = made
    case .failure(let error):
      diagnostics.error("SIGHUP: cannot reload: \(error); keeping the subscription")
      return
    }
    let running = group.venues.map(\.name)
    let named = plan.members.map(\.provider.name)
    if let empty = plan.members.first(where: \.symbols.isEmpty) {
      diagnostics.error(
        "SIGHUP: the config file names no symbol of \(empty.provider.displayName): keeping the subscription")
      return
    }
    guard Set(named) == Set(running) else {
      diagnostics.error(
        "SIGHUP: the config file's symbols are of \(named.joined(separator: ", ")); a reload changes the "
          + "symbols of the venues this run follows (\(running.joined(separator: ", "))), not which "
          + "venues: keeping the subscription (restart to follow others)")
      return
    }
    diagnostics.note("SIGHUP: reloading the subscription from the config file")
    let feeds = group.openFeeds
    for (index, name) in running.enumerated() {
      guard let symbols = plan.members.first(where: { $0.provider.name == name })?.symbols else { continue }
      feeds[index]?.replace(with: symbols)
    }
  }

  /// The settings again, from the file as it is now, the environment and the flags as at start.
  private func reread() -> Result<TickerConfig, Refusal> {
    guard let command = try? ArgumentParser.parse(context.arguments),
      let location = ConfigLocation.resolve(
        explicitPath: command.configPath, environment: context.environment)
    else { return .failure(.noFile("there is no config file (no --config, TICKER_CONFIG or HOME)")) }
    let file: PartialConfig
    do throws(ConfigError) {
      // A missing file at the default location is no config file; one named is an error.
      file = try ConfigFile.load(ConfigLocation(path: location.path, isExplicit: true))
    } catch .fileNotFound(path: _) where !location.isExplicit {
      return .failure(.noFile("there is no config file (\(location.path) does not exist)"))
    } catch {
      return .failure(.unusable("\(error)"))
    }
    do throws(ConfigError) {
      var config = TickerConfig.resolve(
        file: file, environment: try EnvironmentConfig.parse(context.environment), flags: command.config)
      // Decided at start (`RunContext.prepare`), whatever the file says now.
      config.demo = context.config.demo
      config.source = context.config.source
      return .success(config)
    } catch {
      return .failure(.unusable("\(error)"))
    }
  }

  /// Where the subscription comes from when it is not the file.
  private static func fixedBy(_ config: TickerConfig) -> SettingSource? {
    for name in ["--symbol", "--asset"] {
      if let source = config.sources[name], source != .file { return source }
    }
    return nil
  }
}

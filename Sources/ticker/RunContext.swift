import CLI
import Emulators
import NATS
import Outputs
import TickerSupport
import Venues

/// What every command runs with: the resolved settings, and the diagnostics that remove every
/// secret they know of (the API token from the environment and the file, NATS credentials) from
/// everything said, whatever the output.
struct RunContext: Sendable {
  var config: TickerConfig
  var arguments: [String]
  var environment: [String: String]
  var diagnostics: Diagnostics
  /// `ticker serve` (prices go to clients) rather than printed.
  var serving: Bool
  /// `--nats-nkey` or `--nats-creds`: the key NATS connections sign in with.
  var natsKey: NATSKeyAuth? = nil
  let stdout = FileDescriptorWriter(fd: 1)
  /// `--demo`'s market, which every venue of the run trades in (one walk for all).
  let demoMarket = DemoMarket()

  /// The settings from their three layers, then the checks every run shares, each of which may
  /// stop it (having said why).
  static func prepare(
    _ command: ParsedCommand, arguments: [String], environment: [String: String], early: Diagnostics
  ) -> Result<RunContext, Stop> {
    let loaded: LoadedConfig
    switch LoadedConfig.load(command, environment: environment, early: early) {
    case .success(let config): loaded = config
    case .failure(let stop): return .failure(stop)
    }
    let config = loaded.config
    let natsKey: NATSKeyAuth?
    switch NATSKeyFile.load(config) {
    case .success(let key): natsKey = key
    case .failure(let failure):
      early.error(failure.message, event: .configError)
      return .failure(Stop(code: failure.code))
    }
    let secrets =
      ProviderCatalog.tokenVariables.compactMap { environment[$0] } + [config.token ?? ""]
      + (config.publish?.secrets ?? [])
      + (config.source?.secrets ?? []) + (natsKey?.secrets ?? [])
    var context = RunContext(
      config: config, arguments: arguments, environment: environment,
      diagnostics: Diagnostics(secrets: secrets, verbose: config.verbose, format: config.logFormat),
      serving: command.serve,
      natsKey: natsKey)
    if let code = URLSessionAccess.runCompanionIfWanted(config, arguments: arguments, context.diagnostics) {
      return .failure(Stop(code: code))
    }
    if let warning = loaded.permissionWarning {
      context.diagnostics.warning(warning, event: .configPermissions)
    }
    if let stop = context.check() { return .failure(stop) }
    // Having warned (ConfigConflicts): --demo, only ever given on the command line, outranks a
    // saved --source; a --source run records nothing.
    if config.source != nil {
      if config.demo { context.config.source = nil } else { context.config.record = nil }
    }
    return .success(context)
  }

  /// The checks on the settings themselves: files that would hang, settings that do not go
  /// together, serving beyond loopback without a token, flags that do nothing for this run.
  private func check() -> Stop? {
    // OpenSSL reads the CA file at connect time; a FIFO there would hang every connection.
    if let cacert = config.cacert, let problem = WholeFile.problemReading(cacert) {
      diagnostics.error("cannot use the CA file \(cacert): \(problem)", event: .configError)
      return Stop(code: .noInput)
    }
    for conflict in ConfigConflicts.check(config) {
      if conflict.fatal {
        diagnostics.error("\(conflict)", event: .usageError)
        return Stop(code: .usage)
      }
      diagnostics.warning("\(conflict)", event: .settingConflict)
    }
    if serving, let refusal = ServeCommand.refusal(config) {
      diagnostics.error(refusal, event: .usageError)
      return Stop(code: .usage)
    }
    if let refusal = MetricsEndpoint.refusal(config) {
      diagnostics.error(refusal, event: .usageError)
      return Stop(code: .usage)
    }
    for warning in UnusedSettings.warnings(config, source: source, serving: serving) {
      diagnostics.warning(warning, event: .unusedSetting)
    }
    return nil
  }

  /// Where the run's prices come from.
  var source: RunSource { config.replay == nil ? .venue : .recording }
}

/// The settings resolved from the config file, the environment and the flags.
struct LoadedConfig {
  var config: TickerConfig
  /// Said once the URLSession companion has had its turn (so that it is said once).
  var permissionWarning: String?

  static func load(_ command: ParsedCommand, environment: [String: String], early: Diagnostics)
    -> Result<LoadedConfig, Stop>
  {
    var diagnostics = early
    var permissionWarning: String?
    do {
      var file = PartialConfig()
      if let location = ConfigLocation.resolve(explicitPath: command.configPath, environment: environment) {
        file = try ConfigFile.load(location)
        let fileToken = file.resolved.token
        diagnostics = early.adding(secrets: [fileToken ?? ""])
        if fileToken != nil, let mode = ConfigPermissions.mode(of: location.path) {
          permissionWarning = ConfigPermissions.warning(path: location.path, mode: mode)
        }
      }
      let env = try EnvironmentConfig.parse(environment)
      let config = TickerConfig.resolve(file: file, environment: env, flags: command.config)
      return .success(LoadedConfig(config: config, permissionWarning: permissionWarning))
    } catch {
      if let permissionWarning { diagnostics.warning(permissionWarning, event: .configPermissions) }
      diagnostics.error("\(error)", event: .configError)
      switch error {
      case .fileNotFound, .unreadable: return .failure(Stop(code: .noInput))
      default: return .failure(Stop(code: .config))
      }
    }
  }
}

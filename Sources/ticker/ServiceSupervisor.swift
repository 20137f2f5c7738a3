import FeedRuntime
import Monitoring
import Outputs
import Synchronization
import TickerSupport
import Venues

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run under systemd (`Type=notify`, docs/service.md): `READY=1` once the run is ready, `STATUS=`
/// as its venues connect and reconnect, `WATCHDOG=1` at half of `WATCHDOG_USEC` while `isAlive`
/// says so, `RELOADING=1` … `READY=1` around SIGHUP's reload, `STOPPING=1` on SIGINT, SIGTERM
/// or the run's end. Made only when `NOTIFY_SOCKET` is set; a run without it does none of this.
///
/// The commands call the hooks; when the run is ready and alive is theirs to say. By default a
/// live run is ready when every venue has connected once (`report`), and alive while every venue
/// is connected (`VenueConnections`).
final class ServiceSupervisor: Sendable {
  private struct State {
    var venues: VenueConnections
    /// What the status line says before the venues (`serving on …`).
    var headline: String?
    var ready = false
    var stopping = false
    var watchdog: Task<Void, Never>?
    var shutdownHook: Int?

    var statusLine: String {
      let summary = venues.summary
      guard let headline else { return summary }
      return summary.isEmpty ? headline : headline + "; " + summary
    }
  }

  private let notifier: SystemdNotifier
  private let state: Mutex<State>
  private let secrets: [String]
  private let providers: [any Provider]
  private let readyOnConnection: Bool

  /// The supervisor `context`'s environment asks for, or nil (an unusable `NOTIFY_SOCKET` or
  /// watchdog variable is said once, on `diagnostics`).
  /// - Parameters:
  ///   - venues: the run's venues, by the index their reports come with.
  ///   - counted: the venues whose connections make the run ready and alive (all by default).
  ///   - readyOnConnection: ready once every venue counted has connected; else when `ready` is called.
  ///   - isAlive: the watchdog's question; by default, whether every venue counted is connected.
  static func start(
    _ context: RunContext, diagnostics: Diagnostics, venues: [any Provider], counted: Set<Int>? = nil,
    readyOnConnection: Bool = true, isAlive: (@Sendable () -> Bool)? = nil
  ) -> ServiceSupervisor? {
    switch SystemdNotifier.fromEnvironment(context.environment) {
    case nil: return nil
    case .failure(let error)?:
      diagnostics.warning("\(error): no notifications to the service manager")
      return nil
    case .success(let notifier)?:
      let supervisor = ServiceSupervisor(
        notifier, secrets: diagnostics.secrets, venues: venues,
        counted: counted ?? Set(venues.indices), readyOnConnection: readyOnConnection)
      supervisor.startWatchdog(context.environment, diagnostics: diagnostics, isAlive: isAlive)
      return supervisor
    }
  }

  private init(
    _ notifier: SystemdNotifier, secrets: [String], venues: [any Provider], counted: Set<Int>,
    readyOnConnection: Bool
  ) {
    self.notifier = notifier
    self.secrets = secrets
    self.providers = venues
    self.readyOnConnection = readyOnConnection
    state = Mutex(State(venues: VenueConnections(names: venues.map(\.displayName), counted: counted)))
    let hook = ShutdownHooks.add { [weak self] _ in self?.stopping() }
    state.withLock { $0.shutdownHook = hook }
  }

  deinit {
    let (watchdog, hook) = state.withLock { ($0.watchdog, $0.shutdownHook) }
    watchdog?.cancel()
    if let hook { ShutdownHooks.remove(hook) }
  }

  /// The watchdog's pings on a thread of their own (a busy pool never delays one), if asked for.
  private func startWatchdog(
    _ environment: [String: String], diagnostics: Diagnostics, isAlive: (@Sendable () -> Bool)?
  ) {
    switch WatchdogSetting.interval(environment: environment, pid: getpid()) {
    case nil: return
    case .failure(let error)?: diagnostics.warning("\(error)")
    case .success(let interval)?:
      let alive = isAlive ?? { [weak self] in self?.state.withLock { $0.venues.allConnected } ?? false }
      let executor = ThreadExecutor(stackBytes: 256 << 10)
      let clock = ContinuousClock()
      let task = Task(executorPreference: executor) { [notifier] in
        await WatchdogLoop.run(
          WatchdogPacer(interval: interval, start: clock.now), clock: clock, isAlive: alive,
          ping: { try? notifier.send(.watchdog) })
        executor.stop()
      }
      state.withLock { $0.watchdog = task }
    }
  }

  /// `READY=1` (once), with the status line; `headline` leads the status from now on.
  func ready(headline: String? = nil) {
    let status = state.withLock { state -> String? in
      if let headline { state.headline = headline }
      guard !state.ready, !state.stopping else { return nil }
      state.ready = true
      return state.statusLine
    }
    if let status { send(.ready(status: redacted(status))) }
  }

  /// A status line for `systemctl status`.
  func status(_ text: String) { send(.status(redacted(text))) }

  /// SIGHUP's reload begins.
  func reloading() { send(.reloading(monotonicMicroseconds: SystemdNotifier.monotonicMicroseconds())) }

  /// The reload is done (applied or refused): `READY=1` again if the run was ready, else only
  /// the status (its first `READY=1` is still to come).
  func reloaded() {
    let (ready, status) = state.withLock { ($0.ready && !$0.stopping, $0.statusLine) }
    send(ready ? .ready(status: redacted(status)) : .status(redacted(status)))
  }

  /// `STOPPING=1` (once), and no more pings.
  func stopping() {
    let (first, watchdog, hook) = state.withLock { state in
      defer { state.stopping = true }
      return (!state.stopping, state.watchdog, state.shutdownHook)
    }
    guard first else { return }
    send(.stopping)
    watchdog?.cancel()
    if let hook { ShutdownHooks.remove(hook) }
  }

  /// Venue `venue`'s report: readiness once every venue counted has connected, a status line when
  /// a connection opens or is lost.
  func report(venue: Int, _ report: FeedReport) {
    let provider = venue < providers.count ? providers[venue] : nil
    let (change, status) = state.withLock { state in
      let change = state.venues.apply(report, venue: venue) { FailureText.describe($0, provider: provider) }
      return (change, state.statusLine)
    }
    switch change {
    case .firstConnected? where readyOnConnection: ready()
    case .firstConnected?, .linkChanged?: self.status(status)
    case nil: break
    }
  }

  private func send(_ message: SystemdMessage) {
    // Lost datagrams are the protocol's: the next status or ping says it again.
    try? notifier.send(message)
  }

  private func redacted(_ text: String) -> String { Redaction.redact(text, secrets: secrets) }
}

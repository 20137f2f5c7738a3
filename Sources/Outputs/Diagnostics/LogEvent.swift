/// What a diagnostic is about, as a stable snake_case name: the `event` of a JSON line
/// (`--log-format json`), which scripts and log queries match on instead of the words. The names
/// are a promise: docs/logging.md lists every one of `all`, and a name once given is not renamed.
public struct LogEvent: Sendable, Hashable, CustomStringConvertible {
  public let name: String

  public init(_ name: String) { self.name = name }

  public var description: String { name }

  /// A line with no name of its own: the level says how serious it is.
  public static let message = LogEvent("message")

  // The feed's reports (`FeedReport`, one name per case; `ReportWriter`).
  public static let connected = LogEvent("connected")
  public static let disconnected = LogEvent("disconnected")
  public static let venueError = LogEvent("venue_error")
  public static let changeRefused = LogEvent("change_refused")
  public static let closingSoon = LogEvent("closing_soon")
  public static let partial = LogEvent("partial")
  public static let malformed = LogEvent("malformed")
  public static let ignored = LogEvent("ignored")
  public static let notSubscribed = LogEvent("not_subscribed")
  public static let subscriptionChanged = LogEvent("subscription_changed")
  public static let currentSet = LogEvent("current_set")
  public static let controlError = LogEvent("control_error")
  public static let noQuoteYet = LogEvent("no_quote_yet")
  public static let stale = LogEvent("stale")
  public static let recovered = LogEvent("recovered")
  public static let alert = LogEvent("alert")
  /// At exit: how many of a rate-limited kind there were in all.
  public static let summary = LogEvent("summary")
  /// `--verbose`: what a connection's handshake agreed on about compression.
  public static let compression = LogEvent("compression")

  // Before the run: the command line and the settings.
  public static let usageError = LogEvent("usage_error")
  public static let configError = LogEvent("config_error")
  public static let configPermissions = LogEvent("config_permissions")
  public static let settingConflict = LogEvent("setting_conflict")
  public static let unusedSetting = LogEvent("unused_setting")
  public static let stdoutClosed = LogEvent("stdout_closed")

  // How a run ended (`ErrorReport`).
  public static let connectFailed = LogEvent("connect_failed")
  public static let serverClosed = LogEvent("server_closed")
  public static let subscriptionRefused = LogEvent("subscription_refused")
  public static let retriesExhausted = LogEvent("retries_exhausted")
  public static let writeFailed = LogEvent("write_failed")
  public static let untilNotMet = LogEvent("until_not_met")

  // `ticker serve` (`ServeLog`).
  public static let clientConnected = LogEvent("client_connected")
  public static let clientDisconnected = LogEvent("client_disconnected")
  public static let clientRefused = LogEvent("client_refused")
  public static let clientSubscribed = LogEvent("client_subscribed")
  public static let clientUnsubscribed = LogEvent("client_unsubscribed")
  public static let clientError = LogEvent("client_error")
  public static let symbolRefused = LogEvent("symbol_refused")
  public static let upstreamSubscribed = LogEvent("upstream_subscribed")
  public static let upstreamUnsubscribed = LogEvent("upstream_unsubscribed")

  /// Every name the ticker uses, in the order docs/logging.md lists them.
  public static let all: [LogEvent] = [
    .message,
    .connected, .disconnected, .venueError, .changeRefused, .closingSoon, .partial, .malformed, .ignored,
    .notSubscribed, .subscriptionChanged, .currentSet, .controlError, .noQuoteYet, .stale, .recovered, .alert,
    .summary,
    .compression,
    .usageError, .configError, .configPermissions, .settingConflict, .unusedSetting, .stdoutClosed,
    .connectFailed, .serverClosed, .subscriptionRefused, .retriesExhausted, .writeFailed, .untilNotMet,
    .clientConnected, .clientDisconnected, .clientRefused, .clientSubscribed, .clientUnsubscribed,
    .clientError, .symbolRefused, .upstreamSubscribed, .upstreamUnsubscribed,
  ]
}

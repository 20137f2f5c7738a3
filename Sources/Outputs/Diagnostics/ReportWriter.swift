import FeedRuntime
import Synchronization
import TickerSupport
import Venues
import WebSocketClient

/// Turns `FeedReport`s into lines on stderr (through `Diagnostics`). What a server can repeat
/// (errors, malformed messages, unsubscribed trades) is counted and rate-limited: at most a burst
/// per kind per window, and what was held back is owned up to, on the next line of that kind or
/// in `summary()` at exit. Used from the feed's shell (one task), and at exit.
public final class ReportWriter<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  private struct Tally {
    var limiter: WarningLimiter<Instant>
    /// Kinds that are only counted (printed with `--verbose`).
    var counted: Set<String> = []
  }

  private let tally: Mutex<Tally>
  private let now: @Sendable () -> Instant
  private let diagnostics: Diagnostics
  private let provider: any Provider
  /// Ring the terminal bell with an alert (stderr is a terminal).
  private let bell: Bool
  /// `--on-alert`: run with each alert.
  private let alertCommand: AlertCommand?

  /// - Parameter bell: ring the terminal bell with each alert (when stderr is a terminal).
  public init(
    diagnostics: Diagnostics, provider: any Provider, now: @escaping @Sendable () -> Instant,
    burst: Int = 5, window: Duration = .seconds(10), bell: Bool = false, alertCommand: AlertCommand? = nil
  ) {
    self.bell = bell
    self.alertCommand = alertCommand
    self.diagnostics = diagnostics
    self.provider = provider
    self.now = now
    tally = Mutex(Tally(limiter: WarningLimiter(burst: burst, window: window)))
  }

  public func write(_ report: FeedReport) {
    switch report {
    case .connected(let attempt, let symbols):
      let fields: [LogField] = [.int("attempt", attempt), .strings("symbols", symbols)]
      if attempt == 0 {
        diagnostics.info(
          "connected; subscribed to \(symbols.joined(separator: ", "))", event: .connected, fields: fields)
      } else {
        diagnostics.note(
          "reconnected (attempt \(attempt)); subscribed again to \(symbols.count) symbol(s)",
          event: .connected,
          fields: fields)
      }
    case .disconnected(let reason, let attempt, let retryIn):
      diagnostics.warning(
        "\(FailureText.describe(reason, provider: provider)); reconnect attempt \(attempt) in \(FailureText.seconds(retryIn))",
        event: .disconnected,
        fields: [
          .string("reason", Self.kind(reason)), .int("attempt", attempt),
          .seconds("retry_in_seconds", retryIn),
        ])
    case .venueError(let error):
      warn(
        "server errors", "server error\(Self.name(error)): \(error.message)", event: .venueError,
        fields: Self.code(error))
    case .changeRefused(let error, let symbols):
      diagnostics.warning(
        "\(provider.displayName) refused the change\(Self.name(error)): \(error.message); "
          + "no longer subscribed to \(symbols.joined(separator: ", "))", event: .changeRefused,
        fields: Self.code(error) + [.strings("symbols", symbols)])
    case .closingSoon(let why):
      diagnostics.note(
        "\(provider.displayName) is about to close the connection (\(why)); reconnecting", event: .closingSoon
      )
    case .partial(let dropped, let count):
      warn(
        "malformed trade entries",
        "dropped malformed entries: \(dropped.joined(separator: "; "))"
          + (count > dropped.count ? "; and \(count - dropped.count) more" : ""), event: .partial,
        fields: [.int("count", count)])
    case .malformed(let why):
      warn("malformed messages", "malformed message: \(why)", event: .malformed)
    case .ignored(let type):
      count(
        "ignored messages", verbose: "ignored a message of type \"\(type)\"", event: .ignored,
        fields: [.string("type", type)])
    case .notSubscribed(let count, let example):
      self.count(
        "messages with trades for symbols not subscribed",
        verbose: "dropped \(count) trade(s) for symbols not subscribed (such as \"\(example)\")",
        event: .notSubscribed, fields: [.int("count", count), .string("symbol", example)])
    case .subscriptionChanged, .currentSet, .controlError, .noQuoteYet, .stale, .recovered, .alert:
      writeOther(report)
    }
  }

  /// The reports that are not about the connection: the subscription, control lines, alerts.
  private func writeOther(_ report: FeedReport) {
    switch report {
    case .subscriptionChanged(let added, let removed, let now):
      var parts: [String] = []
      if !added.isEmpty { parts.append("subscribed to \(added.joined(separator: ", "))") }
      if !removed.isEmpty { parts.append("unsubscribed from \(removed.joined(separator: ", "))") }
      if parts.isEmpty { parts.append("nothing to change") }
      diagnostics.note(
        parts.joined(separator: "; ") + "; following \(Self.list(now))", event: .subscriptionChanged,
        fields: [.strings("added", added), .strings("removed", removed), .strings("symbols", now)])
    case .currentSet(let symbols):
      diagnostics.note(
        "following \(Self.list(symbols))", event: .currentSet, fields: [.strings("symbols", symbols)])
    case .controlError(let error):
      diagnostics.warning("control: \(error)", event: .controlError)
    case .noQuoteYet(let symbol, let after):
      diagnostics.warning(
        "no quote for \(symbol) within \(FailureText.seconds(after)): \(provider.displayName) accepts "
          + "symbols it does not know without an error; check the spelling", event: .noQuoteYet,
        fields: [.string("symbol", symbol), .seconds("after_seconds", after)])
    case .stale(let symbol, let after):
      warn(
        "stale symbols",
        "no price for \(symbol) for \(FailureText.seconds(after)) while \(provider.displayName) is connected "
          + "and sending (--stale-after)", event: .stale,
        fields: [.string("symbol", symbol), .seconds("after_seconds", after)])
    case .recovered(let symbol, let after):
      warn(
        "recovered symbols", "\(symbol) has prices again, after \(FailureText.seconds(after))",
        event: .recovered,
        fields: [.string("symbol", symbol), .seconds("after_seconds", after)], note: true)
    case .alert(let firing):
      diagnostics.alert(
        Self.describe(firing), bell: bell,
        fields: [.string("symbol", firing.quote.symbol), .string("condition", firing.rule.written)])
      alertCommand?.fire(AlertCommand.Alert(firing, provider: provider.name))
    default:
      return
    }
  }

  /// `reason` of a `disconnected` line: what kind of end it was.
  static func kind(_ reason: DisconnectReason) -> String {
    switch reason {
    case .failed: "failed"
    case .peerClosed: "peer_closed"
    case .pongTimeout: "pong_timeout"
    case .silence: "silence"
    case .requested: "requested"
    }
  }

  private static func code(_ error: VenueError) -> [LogField] {
    error.name.map { [.string("code", $0)] } ?? []
  }

  /// `BINANCE:BTCUSDT>100000: 100000.01 at 2026-01-17T13:18:52.976Z`; a move also says how far
  /// from where (`BTC-USD±2%: 97280.50, +2.00% from 95372.09, at …`); `--until` ends with
  /// `; stopping (--until)`.
  public static func describe(_ firing: AlertBook.Firing) -> String {
    var text = "\(firing.rule.condition): \(firing.price.text)"
    if case .move = firing.rule.condition.test, let start = firing.start {
      text += ", \(Self.percentChange(from: start, to: firing.price)) from \(start.text),"
    }
    text += " at \(UTCTimestamp.string(milliseconds: firing.quote.time))"
    if firing.rule.ends { text += "; stopping (--until)" }
    return text
  }

  /// `+2.00%`, `-0.13%`: the change from `start` to `price`, two decimals.
  static func percentChange(from start: Price, to price: Price) -> String {
    guard start.value != 0 else { return "n/a" }
    let percent = (price.value - start.value) / start.value * 100
    let hundredths = Int((abs(percent) * 100).rounded())
    let fraction = hundredths % 100
    return (percent < 0 ? "-" : "+") + "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)%"
  }

  /// One line per warned kind that had warnings held back and never reported; with `--verbose`,
  /// the totals of the counted kinds too.
  public func summary() {
    let (limiter, counted) = tally.withLock { ($0.limiter, $0.counted) }
    for (kind, held) in limiter.pendingSuppressed.sorted(by: { $0.key < $1.key })
    where !counted.contains(kind) {
      let total = limiter.totals[kind] ?? held
      diagnostics.warning(
        "\(total) \(kind) in all (\(held) not shown)", event: .summary,
        fields: [.int("total", total), .int("not_shown", held)])
    }
    for kind in counted.sorted() {
      let total = limiter.totals[kind] ?? 0
      diagnostics.info("\(total) \(kind) in all", event: .summary, fields: [.int("total", total)])
    }
  }

  /// A warning (or, with `note`, a plain line), rate-limited by kind.
  private func warn(
    _ kind: String, _ text: @autoclosure () -> String, event: LogEvent, fields: [LogField] = [],
    note: Bool = false
  ) {
    let instant = now()
    let decision = tally.withLock { $0.limiter.record(kind, at: instant) }
    guard decision.emit else { return }
    let held = decision.suppressedBefore
    let line = text() + (held > 0 ? " (\(held) more like this not shown)" : "")
    if note {
      diagnostics.note(line, event: event, fields: fields)
    } else {
      diagnostics.warning(line, event: event, fields: fields)
    }
  }

  /// Counts without printing unless `--verbose`.
  private func count(
    _ kind: String, verbose text: @autoclosure () -> String, event: LogEvent, fields: [LogField] = []
  ) {
    let instant = now()
    let decision = tally.withLock { tally in
      tally.counted.insert(kind)
      return tally.limiter.record(kind, at: instant)
    }
    guard diagnostics.verbose, decision.emit else { return }
    let held = decision.suppressedBefore
    diagnostics.info(
      text() + (held > 0 ? " (\(held) more like this not shown)" : ""), event: event, fields: fields)
  }

  private static func name(_ error: VenueError) -> String {
    error.name.map { " \($0)" } ?? ""
  }

  private static func list(_ symbols: [String]) -> String {
    symbols.isEmpty ? "no symbol" : "\(symbols.count) symbol(s): \(symbols.joined(separator: ", "))"
  }
}

import FeedRuntime
import NATS
import Outputs
import Synchronization
import Venues

/// Turns a publisher's events into stderr lines, rate-limited: an unreachable server is said
/// at once, then at most once a minute (with the number of attempts not shown), so a ticker
/// left running while NATS is down does not flood stderr; a recovery is always said.
public final class NATSReportWriter: Sendable {
  private let diagnostics: Diagnostics
  private let url: NATSURL
  private let limiter = Mutex(WarningLimiter<ContinuousClock.Instant>(burst: 1, window: .seconds(60)))
  /// Whether a problem was reported since the last connection (then the recovery is told).
  private let troubled = Mutex(false)
  /// The stream outcomes said already: each is said once, not on every reconnect.
  private let streamSaid = Mutex<[StreamOutcome]>([])

  public init(diagnostics: Diagnostics, url: NATSURL) {
    self.diagnostics = diagnostics
    self.url = url
  }

  public func write(_ event: NATSPublisherEvent) {
    for line in lines(for: event) {
      switch line.level {
      case .info: diagnostics.info(line.text)
      case .note: diagnostics.note(line.text)
      case .warning: diagnostics.warning(line.text)
      }
    }
  }

  public enum Level: Sendable, Equatable { case info, note, warning }

  /// The lines for `event` (pure but for the rate limit's clock).
  public func lines(for event: NATSPublisherEvent, at now: ContinuousClock.Instant = .now) -> [(
    level: Level, text: String
  )] {
    switch event {
    case .connected(let info, let reconnected, let dropped):
      return connected(info, reconnected: reconnected, dropped: dropped)
    case .connectFailed(let error, let attempt, let delay, let buffered, let dropped):
      troubled.withLock { $0 = true }
      guard let suffix = admit("unreachable", at: now) else { return [] }
      return [
        (
          .warning,
          "cannot publish to \(url): \(error); retrying in \(FailureText.seconds(delay)) "
            + "(attempt \(attempt); prices keep printing; \(buffered) held, \(dropped) dropped so far)"
            + suffix
        )
      ]
    case .lost(let error, let delay):
      troubled.withLock { $0 = true }
      guard let suffix = admit("lost", at: now) else { return [] }
      return [
        (
          .warning,
          "lost the NATS connection to \(url): \(error); reconnecting in \(FailureText.seconds(delay))\(suffix)"
        )
      ]
    case .serverError(let error):
      guard let suffix = admit("server error", at: now) else { return [] }
      return [(.warning, "the NATS server at \(url) answered \(error)\(suffix)")]
    case .finished(let summary):
      return finished(summary)
    case .stream(let name, let outcome):
      return stream(name, outcome)
    }
  }

  private typealias Line = (level: Level, text: String)

  /// Publishing began: said quietly the first time, as a recovery after a reconnect or trouble.
  private func connected(_ info: NATSServerInfo, reconnected: Bool, dropped: Int) -> [Line] {
    let wasTroubled = troubled.withLock { state in
      defer { state = false }
      return state
    }
    let server = "NATS server \(info.version.isEmpty ? "(version unknown)" : info.version)"
    guard reconnected || wasTroubled else {
      return [(.info, "publishing to \(url) (\(server))")]
    }
    let lost = dropped == 0 ? "no price was dropped" : "\(dropped) prices were dropped meanwhile"
    return [(.note, "publishing to \(url) again (\(server)); \(lost)")]
  }

  /// The count published, led by a warning of what was not and why.
  private func finished(_ summary: NATSPublisherSummary) -> [Line] {
    var lines: [Line] = []
    let notSent = summary.dropped + summary.unsent + summary.lostInFlight
    if notSent > 0 {
      var parts: [String] = []
      if summary.dropped > 0 {
        parts.append("\(summary.dropped) dropped while NATS was unreachable or slow")
      }
      if summary.unsent > 0 { parts.append("\(summary.unsent) still waiting at exit") }
      if summary.lostInFlight > 0 { parts.append("\(summary.lostInFlight) lost with a failed connection") }
      lines.append(
        (.warning, "\(notSent) prices were not published to \(url): \(parts.joined(separator: ", "))"))
    }
    lines.append((.info, "published \(summary.published) prices to \(url)"))
    return lines
  }

  /// What came of `--publish-stream`: a kept stream on every connection, a failure the first time.
  private func stream(_ name: String, _ outcome: StreamOutcome) -> [Line] {
    let first = streamSaid.withLock { said in
      guard !said.contains(outcome) else { return false }
      said.append(outcome)
      return true
    }
    switch outcome {
    case .kept: return [(.info, "JetStream stream \(name) keeps the last price of each subject")]
    case .noJetStream where first:
      return [
        (
          .warning,
          "the NATS server at \(url) has no JetStream (start it with -js): --publish-stream \(name) "
            + "keeps nothing; prices are published live only"
        )
      ]
    case .refused(let error) where first:
      return [(.warning, "JetStream did not make the stream \(name): \(error); prices are published live")]
    case .failed(let error) where first:
      return [(.warning, "could not make the JetStream stream \(name): \(error)")]
    default: return []
    }
  }

  /// nil when the warning is held back; else the text to append (how many were held back).
  private func admit(_ kind: String, at now: ContinuousClock.Instant) -> String? {
    let decision = limiter.withLock { $0.record(kind, at: now) }
    guard decision.emit else { return nil }
    return decision.suppressedBefore > 0 ? " (\(decision.suppressedBefore) similar warnings not shown)" : ""
  }
}

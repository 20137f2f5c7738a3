import FeedRuntime
import WebSocketClient

/// What the service supervisor knows of a run's venues from their reports, pure: whether each
/// has connected once (readiness), whether it is connected now (the watchdog's question), and the
/// status line that says so.
///
/// Without another answer (`ServiceSupervisor.start`'s `isAlive`; the commands pass the run's
/// `RunMonitor`), "alive" is "every venue counted is connected": the session already ends a connection that sends no message for the silence limit
/// (`--silence-timeout`), or no pong, and the venue reports it disconnected until a new
/// connection is subscribed. Venues that are not counted (those `serve` opens when a client asks)
/// still show in the status line.
struct VenueConnections: Sendable {
  enum Link: Sendable, Equatable {
    case connected(symbols: Int)
    case reconnecting(attempt: Int, reason: String)
  }

  /// What a report changed.
  enum Change: Sendable, Equatable {
    /// Every venue counted has now connected for the first time.
    case firstConnected
    /// A venue connected again or lost its connection.
    case linkChanged
  }

  /// Display names, by venue index.
  let names: [String]
  /// The venues whose connections count (for readiness and the watchdog).
  let counted: Set<Int>
  private(set) var links: [Int: Link] = [:]
  private var everConnected: Set<Int> = []

  init(names: [String], counted: Set<Int>) {
    self.names = names
    self.counted = counted
  }

  /// Every venue counted is connected now.
  var allConnected: Bool {
    counted.allSatisfy { if case .connected = links[$0] { true } else { false } }
  }

  /// Takes venue `venue`'s report; `describe` words a disconnection's reason.
  mutating func apply(_ report: FeedReport, venue: Int, describe: (DisconnectReason) -> String) -> Change? {
    switch report {
    case .connected(_, let symbols):
      links[venue] = .connected(symbols: symbols.count)
      let first = everConnected.insert(venue).inserted
      if first, counted.contains(venue), counted.isSubset(of: everConnected) { return .firstConnected }
      return .linkChanged
    case .disconnected(let reason, let attempt, _):
      links[venue] = .reconnecting(attempt: attempt, reason: describe(reason))
      return .linkChanged
    case .subscriptionChanged(_, _, let now):
      guard case .connected = links[venue] else { return nil }
      links[venue] = .connected(symbols: now.count)
      return .linkChanged
    default:
      return nil
    }
  }

  /// Each venue that has reported: "Binance: 2 symbols; Kraken: reconnecting (attempt 3): …".
  var summary: String {
    links.keys.sorted().map { index in
      let name = index < names.count ? names[index] : "venue \(index)"
      switch links[index]! {
      case .connected(let symbols): return "\(name): \(symbols) symbol\(symbols == 1 ? "" : "s")"
      case .reconnecting(let attempt, let reason):
        return "\(name): reconnecting (attempt \(attempt)): \(reason)"
      }
    }.joined(separator: "; ")
  }
}

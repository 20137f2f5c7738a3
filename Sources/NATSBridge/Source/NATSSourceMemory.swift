import NATS
import Synchronization

/// What a `--source` feed remembers across its connections: the last payload delivered on each
/// subject (so that the last price kept in JetStream is not printed again after a reconnect), and
/// whether "no JetStream" was said (it is said once). One payload per subscribed subject.
final class NATSSourceMemory: Sendable {
  private struct State {
    var lastDelivered: [String: [UInt8]] = [:]
    var saidNoJetStream = false
  }
  private let state = Mutex(State())

  func lastDelivered(_ subject: String) -> [UInt8]? { state.withLock { $0.lastDelivered[subject] } }

  func delivered(_ payload: [UInt8], on subject: String) {
    state.withLock { $0.lastDelivered[subject] = payload }
  }

  func forget(_ subject: String) { _ = state.withLock { $0.lastDelivered.removeValue(forKey: subject) } }

  /// True the first time only.
  func sayNoJetStream() -> Bool {
    state.withLock { state in
      defer { state.saidNoJetStream = true }
      return !state.saidNoJetStream
    }
  }
}

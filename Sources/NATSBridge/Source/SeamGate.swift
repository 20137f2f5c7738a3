import NATS

/// The seam between a subject's last price kept in JetStream and its live prices, for one
/// connection: no gap and no duplicate. Pure.
///
/// A subject is held (`hold`) before its subscription is made: its live deliveries wait while the
/// last price is fetched. `release` gives the fetched price (nil when there is none); the next
/// `flush` gives it, unless it is already among the waiting ones or is the last payload delivered
/// before (`lastDelivered`: an earlier connection printed it), then the waiting ones in order.
/// Why that is enough: the server writes a subscriber's deliveries and the answer to its fetch on
/// one connection, in the order it makes them, and it stores a message in the stream only after
/// handing it to the subscriptions. So a price published after the subscription reached this
/// connection before the answer that holds it: it is among the waiting ones, and the fetched price
/// is not printed twice. One that is not among them was published before the subscription, and
/// goes first. (Should a server ever reorder them, the first live delivery after a fetched price
/// that equals it is dropped.)
///
/// Payloads are compared whole: each carries the trade time and when the publisher received it,
/// so two equal ones are one message.
struct SeamGate: Sendable {
  private enum Seam: Sendable {
    case holding([[UInt8]])
    case released(seed: [UInt8]?, waiting: [[UInt8]])
  }

  private var seams: [String: Seam] = [:]
  /// The subjects of `seams`, in the order they were held (flushed in that order).
  private var order: [String] = []
  private var dropIfEqual: [String: [UInt8]] = [:]

  /// Holds `subject`'s live deliveries until its fetched price is released and flushed.
  mutating func hold(_ subject: String) {
    if seams[subject] == nil { order.append(subject) }
    seams[subject] = .holding([])
  }

  /// A live delivery: true when it goes out now; false when it waits or is the fetched price
  /// again.
  mutating func live(_ subject: String, _ payload: [UInt8]) -> Bool {
    switch seams[subject] {
    case .holding(let waiting)?:
      seams[subject] = .holding(waiting + [payload])
      return false
    case .released(let seed, let waiting)?:
      seams[subject] = .released(seed: seed, waiting: waiting + [payload])
      return false
    case nil:
      if let fetched = dropIfEqual.removeValue(forKey: subject), fetched == payload { return false }
      return true
    }
  }

  /// The fetch for `subject` ended with `seed`.
  mutating func release(_ subject: String, seed: [UInt8]?) {
    guard case .holding(let waiting)? = seams[subject] else { return }
    seams[subject] = .released(seed: seed, waiting: waiting)
  }

  /// Whether some released subject waits for `flush`.
  var hasReleased: Bool {
    seams.values.contains { if case .released = $0 { true } else { false } }
  }

  /// What goes out now, per released subject, in order; `lastDelivered` gives the last payload
  /// delivered on a subject before.
  mutating func flush(lastDelivered: (String) -> [UInt8]?) -> [(subject: String, payload: [UInt8])] {
    var out: [(subject: String, payload: [UInt8])] = []
    for subject in order {
      guard case .released(let seed, let waiting)? = seams[subject] else { continue }
      seams[subject] = nil
      if let seed, !waiting.contains(seed), seed != lastDelivered(subject) {
        out.append((subject, seed))
        dropIfEqual[subject] = seed
      }
      out += waiting.map { (subject, $0) }
    }
    order.removeAll { seams[$0] == nil }
    return out
  }

  /// Forgets `subject` (unsubscribed).
  mutating func forget(_ subject: String) {
    seams[subject] = nil
    order.removeAll { $0 == subject }
    dropIfEqual[subject] = nil
  }
}

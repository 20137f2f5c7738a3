import Synchronization

/// Whether a connection's messages are being held back by the session's own consumer (its
/// forwarding task waits for room), shared between that task and the session loop.
final class HeldBack: Sendable {
  private let flag = Atomic<Bool>(false)

  var isSet: Bool { flag.load(ordering: .acquiring) }

  func set(_ value: Bool) { flag.store(value, ordering: .releasing) }
}

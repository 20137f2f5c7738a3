import Synchronization

/// What a connection's forwarding task and the session loop share: the task puts the
/// connection's messages straight into the session's events (no hop through the loop), and
///
/// - `isOpen`: whether they are still wanted. The loop closes it when it leaves the connection,
///   before it says so in the events; the task checks it under the events' lock, so no message
///   of a connection ever follows its `.disconnected` (or the session's `.ended`).
/// - `lastMessage`: when the task last forwarded a batch, for the loop's liveness watch.
/// - `isHeldBack`: set while the task waits for the session's consumer to make room.
final class Forwarding<Instant: InstantProtocol>: Sendable {
  private let open = Atomic<Bool>(true)
  private let heldBack = Atomic<Bool>(false)
  private let last = Mutex<Instant?>(nil)

  var isOpen: Bool { open.load(ordering: .acquiring) }
  func close() { open.store(false, ordering: .releasing) }

  var isHeldBack: Bool { heldBack.load(ordering: .acquiring) }
  func setHeldBack(_ value: Bool) { heldBack.store(value, ordering: .releasing) }

  func forwarded(at instant: Instant) { last.withLock { $0 = instant } }
  /// When the last batch was forwarded since the previous call, if one was.
  func takeLastMessage() -> Instant? {
    last.withLock { value in
      defer { value = nil }; return value
    }
  }
}

import TickerSupport
import Venues
import WebSocketClient

/// The fast path: a small batch of a live feed's messages carried by the connection's reader
/// thread from the socket to stdout's `write(2)`, instead of waking the feed's task (and then
/// the output's) for each one, which costs more than the work at a live pace. While the feed's
/// task waits for the session's next events, the session hands each batch to `relay(_:)` on the
/// reader thread; what it cannot finish there (an output without room, a report, a reconnect, a
/// stop) it leaves in the shell's storage and wakes the task, which carries that out first.
/// Anything else (posts, openings, large messages, a firehose's batches, `--record`) is
/// declined and reaches the task as before.
///
/// Lock order. The path nests these locks, outermost first, and no thread takes them in any
/// other order (`LockRank` ranks them so; debug builds check every acquisition and trap,
/// naming both locks, on a lock taken out of order):
///
/// 1. the connection's `messages` (its reader thread offers a batch to the session's relay);
/// 2. the session's `events` (held while `relay(_:)` runs: so `relay` and the feed's task never
///    run at once, and whatever one did the other sees);
/// 3. the shell's storage (taken and released by `relay`, never held while taking another);
/// 4. the shell's outbox (what `relay` sends; the sender task takes the messages);
/// 5. the bus's list of outputs (`QuoteBus.publishNow` reads it);
/// 6. each output's queue (held while its direct delivery runs, so it and its consumer never
///    run at once);
/// 7. stdout's writer (`QuoteWriter.writeDirectly`, whose `write(2)` never waits).
struct FastPath<C: Clock>: Sendable where C.Duration == Duration {
  let storage: FeedShellStorage<C>
  let bus: QuoteBus
  let outbox: MessageChannel<Outgoing>
  let clock: C
  let wallClock: @Sendable () -> Int64
  /// False with `--record`: the feed's task hands every batch to the recorder first.
  let relays: Bool

  /// The most messages, and bytes, a batch the fast path takes may have: a live feed's. A
  /// firehose's batches are left to the feed's task, so that the reader goes on reading meanwhile.
  static var limit: (messages: Int, bytes: Int) { (64, 16 << 10) }

  /// Handles a batch of the session's events as the feed's task would, if it can: see above.
  /// Runs under the events' lock.
  func relay(_ events: [SessionEvent]) -> MessageChannel<SessionEvent>.Relayed {
    guard relays, events.count <= Self.limit.messages else { return .declined }
    var bytes = 0
    for event in events {
      guard case .message(let message) = event else { return .declined }
      bytes += message.byteCount
    }
    guard bytes <= Self.limit.bytes, bytes < LargeMessage.threshold else { return .declined }
    let now = clock.now
    let received = wallClock()
    let step = storage.withState {
      state -> (actions: [FeedAction], connection: (any MessageConnection)?)? in
      guard state.pending.isEmpty else { return nil }
      state.machine.received = received
      let (actions, _) = state.machine.handle(events, from: 0, at: now)
      state.settle()
      return (actions, state.connection)
    }
    guard let step else { return .declined }
    for (index, action) in step.actions.enumerated() {
      switch action {
      case .publish(let quotes) where bus.publishNow(quotes):
        continue
      case .send(let messages):
        if let connection = step.connection {
          outbox.forcePush(Outgoing(connection: connection, messages: messages, done: nil))
        }
      default:
        storage.withState { $0.pending = Array(step.actions[index...]) }
        return .takenWake
      }
    }
    return .taken
  }
}

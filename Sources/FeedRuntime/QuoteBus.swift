import Synchronization
import TickerSupport
import Venues

/// Hands every published batch of quotes to each subscribed output, each through its own bounded
/// queue and consumed by its own task, so outputs never share a pace: stdout, and later a board,
/// a recorder, `serve` clients, a message bus.
///
/// An output that must not lose a price (stdout) holds the publisher back when its queue is
/// full (`.wait`): the feed then stops reading the socket, and TCP slows the server. An output that
/// may be dropped (a network client) is removed when its queue is full (`.drop`), never slowing
/// the others or growing memory. An output that may lose old prices but must stay (`--publish`)
/// has its oldest batches evicted instead (`.dropOldest`).
public final class QuoteBus: Sendable {
  /// What happens when an output's queue is full.
  public enum Overflow: Sendable {
    /// The publisher waits for room.
    case wait
    /// The output is dropped (its consumer sees the end, and `onDrop` runs).
    case drop(onDrop: @Sendable () -> Void)
    /// The output's oldest batches make room (never waits, never drops the output); `onDrop`
    /// is told how many quotes were lost that way. For outputs that keep their own bounded
    /// buffer and must never hold the feed back (`--publish`).
    case dropOldest(onDrop: @Sendable (_ quotes: Int) -> Void)
  }

  /// What an output's `direct` delivery did with a batch.
  public enum DirectDelivery: Sendable {
    /// Done: the consumer has nothing to do for it.
    case delivered
    /// Taken, but the consumer must finish it (what could not be done without waiting, a reason
    /// to stop): it is woken with an empty batch, which comes before any later one.
    case unfinished
    /// Not taken: it goes through the queue.
    case declined
  }

  /// One output's queue.
  public final class Subscription: Sendable {
    public let queue: MessageChannel<[Quote]>
    let overflow: Overflow
    let direct: (@Sendable ([Quote]) -> DirectDelivery)?

    init(
      capacity: Int, quoteLimit: Int, overflow: Overflow,
      direct: (@Sendable ([Quote]) -> DirectDelivery)?
    ) {
      queue = MessageChannel(capacity: capacity, costLimit: quoteLimit, lockRank: .outputQueue)
      self.overflow = overflow
      self.direct = direct
    }
  }

  private let subscriptions = RankedMutex<[ObjectIdentifier: Subscription]>([:], rank: .quoteBus)

  public init() {}

  /// A new output: its queue holds at most `capacity` batches or `quoteLimit` quotes.
  ///
  /// `direct` (with `.wait`): the publisher hands a batch to it, on the publisher's own task,
  /// instead of waking the consumer, whenever the consumer waits with nothing queued. It runs
  /// under the queue's lock (see `MessageChannel.withWaitingConsumer`), so it and the consumer
  /// never run at once and each sees what the other did; it must never block. Hops between
  /// tasks cost more than the work of a small batch (stdout: one line at a live pace).
  public func subscribe(
    capacity: Int = 64, quoteLimit: Int = 4096, overflow: Overflow = .wait,
    direct: (@Sendable ([Quote]) -> DirectDelivery)? = nil
  ) -> Subscription {
    let subscription = Subscription(
      capacity: capacity, quoteLimit: quoteLimit, overflow: overflow, direct: direct)
    subscriptions.withLock { $0[ObjectIdentifier(subscription)] = subscription }
    return subscription
  }

  /// Stops delivering to `subscription` (its queue ends after what it holds).
  public func unsubscribe(_ subscription: Subscription) {
    _ = subscriptions.withLock { $0.removeValue(forKey: ObjectIdentifier(subscription)) }
    subscription.queue.finish()
  }

  /// Delivers `quotes` to every output, in publication order.
  public func publish(_ quotes: [Quote]) async {
    guard !quotes.isEmpty else { return }
    let current = subscriptions.withLock { Array($0.values) }
    for subscription in current {
      switch subscription.overflow {
      case .wait:
        switch deliverDirectly(quotes, to: subscription) {
        case .delivered: break
        case .unfinished: await subscription.queue.send([], cost: 0)
        case .declined: await subscription.queue.send(quotes, cost: quotes.count)
        }
      case .drop(let onDrop):
        if subscription.queue.bufferedCount >= subscription.queue.capacity {
          unsubscribe(subscription)
          onDrop()
        } else {
          subscription.queue.forcePush(quotes)
        }
      case .dropOldest(let onDrop):
        let evicted = subscription.queue.pushEvictingOldest(quotes, cost: quotes.count, costOf: \.count)
        if !evicted.isEmpty { onDrop(evicted.reduce(0) { $0 + $1.count }) }
      }
    }
  }

  /// Delivers `quotes` to every output now, if every one can take them without waiting: outputs
  /// that wait for room (`.wait`) only, each with room. Else false, and nothing is delivered (use
  /// `publish`). For a publisher that must not wait (`FastPath`), and that no other publisher
  /// runs beside (then room cannot run out between the look and the delivery).
  func publishNow(_ quotes: [Quote]) -> Bool {
    guard !quotes.isEmpty else { return true }
    let current = subscriptions.withLock { Array($0.values) }
    for subscription in current {
      guard case .wait = subscription.overflow, subscription.queue.hasRoom else { return false }
    }
    for subscription in current {
      switch deliverDirectly(quotes, to: subscription) {
      case .delivered: break
      case .unfinished: subscription.queue.forcePush([])
      case .declined: subscription.queue.forcePush(contentsOf: [quotes], cost: quotes.count)
      }
    }
    return true
  }

  /// Hands `quotes` to the output's `direct` delivery if it has one and its consumer waits.
  private func deliverDirectly(_ quotes: [Quote], to subscription: Subscription) -> DirectDelivery {
    guard let direct = subscription.direct else { return .declined }
    return subscription.queue.withWaitingConsumer { direct(quotes) } ?? .declined
  }

  /// Ends every output's queue (after what each holds).
  public func finish() {
    let all = subscriptions.withLock { state -> [Subscription] in
      defer { state = [:] }
      return Array(state.values)
    }
    for subscription in all { subscription.queue.finish() }
  }
}

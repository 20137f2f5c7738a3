import PriceFeed
import Synchronization
import WebSocketClient

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

  /// One output's queue.
  public final class Subscription: Sendable {
    public let queue: MessageChannel<[Quote]>
    let overflow: Overflow

    init(capacity: Int, quoteLimit: Int, overflow: Overflow) {
      queue = MessageChannel(capacity: capacity, costLimit: quoteLimit)
      self.overflow = overflow
    }
  }

  private let subscriptions = Mutex<[ObjectIdentifier: Subscription]>([:])

  public init() {}

  /// A new output: its queue holds at most `capacity` batches or `quoteLimit` quotes.
  public func subscribe(capacity: Int = 64, quoteLimit: Int = 4096, overflow: Overflow = .wait)
    -> Subscription
  {
    let subscription = Subscription(capacity: capacity, quoteLimit: quoteLimit, overflow: overflow)
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
        await subscription.queue.send(quotes, cost: quotes.count)
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

  /// Ends every output's queue (after what each holds).
  public func finish() {
    let all = subscriptions.withLock { state -> [Subscription] in
      defer { state = [:] }
      return Array(state.values)
    }
    for subscription in all { subscription.queue.finish() }
  }
}

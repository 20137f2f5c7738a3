import PriceFeed

/// The output that prints: a consumer of the feed's bus that writes every quote with a
/// `QuoteWriter`. Nothing is dropped: while it is behind, the feed waits for it. When writing must
/// end (`--count` reached, the reader went away, a write failed) it stops the feed with that
/// reason and leaves the bus.
public enum StdoutOutput {
  /// Starts consuming `feed`'s quotes; the task ends after the last one (await it before exit).
  public static func start(on feed: any QuoteFeed, writer: QuoteWriter) -> Task<Void, Never> {
    let subscription = feed.bus.subscribe()
    return Task {
      do throws(StopReason) {
        try writer.begin()
      } catch {
        feed.stop(error)
        feed.bus.unsubscribe(subscription)
        subscription.queue.cancel()
        return
      }
      while let batches = try? await subscription.queue.nextBatch() {
        for quotes in batches {
          do throws(StopReason) {
            try writer.write(quotes)
          } catch {
            feed.stop(error)
            feed.bus.unsubscribe(subscription)
            subscription.queue.cancel()
            return
          }
        }
      }
    }
  }
}

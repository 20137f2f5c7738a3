import FeedRuntime
import TickerSupport
import Venues

/// The output that prints: a consumer of the feed's bus that writes every quote with a
/// `QuoteWriter`. Nothing is dropped: while it is behind, the feed waits for it. When writing must
/// end (`--count` reached, the reader went away, a write failed) it stops the feed with that
/// reason and leaves the bus.
///
/// The task is there so that stdout never blocks the feed: a reader that is behind (a pager, a
/// slow pipe) holds up only this task, and the feed, waiting for room on the bus, still hears a
/// stop. But waking it for each line costs more than the line at a live pace, so while it waits
/// with nothing queued, the feed's own task writes a small batch itself when stdout takes the
/// bytes at once (`QuoteWriter.writeDirectly`: a write that never waits); whatever stdout does
/// not take then, and whatever comes next, goes through the task as before, in order.
///
/// The task runs on a thread of its own (`ThreadExecutor`), not on the concurrency pool: its
/// writes block while the reader is behind, and on a pool of two threads (two cores) a blocked
/// writer would leave every other task of the process one thread.
public enum StdoutOutput {
  /// Starts consuming `feed`'s quotes; the task ends after the last one (await it before exit).
  public static func start(on feed: any QuoteFeed, writer: QuoteWriter) -> Task<Void, Never> {
    let subscription = feed.bus.subscribe(direct: { writer.writeDirectly($0) })
    let thread = ThreadExecutor()
    return Task(executorPreference: thread) {
      defer { thread.stop() }
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

import Foundation
import TickerSupport

/// Runs blocking test work (waiting for a child's output or exit, polling a condition) on a
/// thread of its own, so that it never holds one of the concurrency pool's few threads: on a
/// 2-core machine, two blocked pool threads stall every other test's async work.
/// (Nor Dispatch's capped worker pool, on which that pool itself runs on Linux: blocked Dispatch
/// workers once froze every async test of the run for 20–60 s.)
package func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    DedicatedThread.start(stackBytes: 8 << 20) { continuation.resume(returning: work()) }
  }
}

/// `offPool` for work that throws.
package func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DedicatedThread.start(stackBytes: 8 << 20) { continuation.resume(with: Result { try work() }) }
  }
}

/// Polls `value` (off the pool) until it gives something or `seconds` pass (a hang guard only).
package func eventuallyValue<T: Sendable>(within seconds: Double = 30, _ value: @escaping @Sendable () -> T?)
  async
  -> T?
{
  await offPool {
    let limit = Date().addingTimeInterval(seconds)
    let tick = DispatchSemaphore(value: 0)
    while Date() < limit {
      if let found = value() { return found }
      _ = tick.wait(timeout: .now() + 0.01)
    }
    return value()
  }
}

/// Polls `condition` (off the pool) until it holds or `seconds` pass (a hang guard only).
package func eventually(within seconds: Double = 30, _ condition: @escaping @Sendable () -> Bool) async
  -> Bool
{
  await eventuallyValue(within: seconds) { condition() ? true : nil } ?? false
}

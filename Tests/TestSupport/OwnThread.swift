import Testing
import TickerSupport

/// `.ownThread`: each test of a suite (or a test) runs on a thread of its own (a
/// `ThreadExecutor`), not on the concurrency pool. For the CPU-heavy synchronous tests (large
/// messages, decompression bombs, random agreement runs): on a 2-core machine the pool has two
/// threads, and a test computing on one for tens of seconds in a debug build holds back every
/// other test's async work meanwhile, long enough for their hang guards to fire. And for the
/// tests of a feed's timings (keepalive, deadlines), the other way round: their feed's tasks,
/// including those the runtime starts unstructured (`PreferredExecutor`), run on the test's
/// thread, so that tests computing on the pool cannot hold back a scaled keepalive.
package struct OwnThread: TestTrait, SuiteTrait, TestScoping {
  package var isRecursive: Bool { true }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Once per test case (a test without arguments has one); suites pass through.
    guard testCase != nil else { return try await function() }
    let executor = ThreadExecutor()
    defer { executor.stop() }
    try await PreferredExecutor.$current.withValue(executor) {
      try await withTaskExecutorPreference(executor) { try await function() }
    }
  }
}

extension Trait where Self == OwnThread {
  package static var ownThread: Self { OwnThread() }
}

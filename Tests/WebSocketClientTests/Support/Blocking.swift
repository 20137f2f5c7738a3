import WebSocketClient

@testable import TickerSupport

/// Runs blocking waits (a child's readiness line, its exit) on a thread of their own
/// (`DedicatedThread`), so that async tests never block the few threads of the Swift concurrency
/// pool — nor Dispatch's capped worker pool, on which that pool itself runs on Linux: blocked
/// Dispatch workers once froze every async test of the run for 20–60 s.
enum Blocking {
  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DedicatedThread.start(stackBytes: 8 << 20) { continuation.resume(with: Result { try work() }) }
    }
  }

  static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DedicatedThread.start(stackBytes: 8 << 20) { continuation.resume(returning: work()) }
    }
  }
}

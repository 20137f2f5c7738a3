import Dispatch

/// Runs blocking waits (a child's readiness line, its exit) on a dispatch queue of their own, so
/// that async tests never block the few threads of the Swift concurrency pool.
enum Blocking {
  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue(label: "tests.blocking").async {
        continuation.resume(with: Result { try work() })
      }
    }
  }

  static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DispatchQueue(label: "tests.blocking").async { continuation.resume(returning: work()) }
    }
  }
}

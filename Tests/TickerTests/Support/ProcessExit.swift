import Foundation

extension Process {
  /// Waits at most `seconds` for the process to exit; false when it has not (and then
  /// `terminationStatus` must not be read: Foundation traps on it).
  ///
  /// Foundation notices a child's exit inside `waitUntilExit()` (it drives a run loop there), so
  /// that call does the waiting, on a thread of its own; the caller's wait is bounded. A full
  /// run was once seen with `waitUntilExit()` spinning for many minutes: with this, such a
  /// child becomes a reported test issue instead of a hung test run.
  @discardableResult
  func waitForExit(within seconds: Double) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      self.waitUntilExit()
      done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
  }
}

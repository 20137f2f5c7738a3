import Foundation

extension Process {
  /// Waits until the process has exited, checking every 10 ms, for at most `seconds`; false when
  /// it has not (and then `terminationStatus` must not be read: Foundation traps on it).
  ///
  /// Instead of `waitUntilExit()`, which spins a run loop until Foundation notices the exit:
  /// on Linux it has been seen to spin two cores for many minutes without noticing.
  @discardableResult
  func waitForExit(within seconds: Double) -> Bool {
    let limit = DispatchTime.now() + seconds
    let tick = DispatchSemaphore(value: 0)
    while isRunning {
      if DispatchTime.now() >= limit { return false }
      _ = tick.wait(timeout: .now() + 0.01)
    }
    return true
  }
}

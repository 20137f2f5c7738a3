import Dispatch

/// The timeouts of code that runs on threads (a connection's close, a NATS request, a publisher
/// finishing): `work` runs once, `seconds` from now, on one serial queue of its own — never
/// Swift's concurrency pool, which a busy process can hold for seconds, and never a thread per
/// timeout. Tasks wait with `DeadlineTimer` instead, the event loop with its poll's timeout.
public enum Timeout {
  private static let queue = DispatchQueue(label: "ticker.timeouts")

  /// Runs `work` after `seconds` (at once when not positive). `work` must not block.
  public static func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
    queue.asyncAfter(deadline: .now() + max(0, seconds), execute: work)
  }
}

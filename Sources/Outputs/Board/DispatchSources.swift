import Dispatch
import TickerSupport

/// Dispatch sources kept to be cancelled, in their owner's lock.
// invariant: used only under its owner's `RankedMutex` of rank `.dispatchSources` (checked in debug builds).
struct DispatchSources: @unchecked Sendable {
  private(set) var list: [any DispatchSourceProtocol] = []

  /// Keeps `sources` (already configured and resumed) to cancel later.
  mutating func keep(_ sources: [any DispatchSourceProtocol]) {
    #if DEBUG
      LockOrderChecker.requireHeld(.dispatchSources, by: "DispatchSources.keep")
    #endif
    list += sources
  }

  /// Cancels every source kept (`DispatchSource.cancel` is thread-safe) and forgets them.
  mutating func cancelAll() {
    #if DEBUG
      LockOrderChecker.requireHeld(.dispatchSources, by: "DispatchSources.cancelAll")
    #endif
    for source in list { source.cancel() }
    list = []
  }
}

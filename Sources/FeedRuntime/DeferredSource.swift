import Synchronization
import Venues

/// A `QuoteSource` that starts only when first asked for a symbol (or told to stop): `ticker serve
/// --replay` plays a recording from its beginning for the first client, not into an empty room.
public final class DeferredSource: QuoteSource {
  private let inner: any QuoteSource
  private let state = Mutex<State>(State())

  private struct State {
    var released = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  public init(_ inner: any QuoteSource) { self.inner = inner }

  public var bus: QuoteBus { inner.bus }
  public var provider: any Provider { inner.provider }
  public var venues: [any Provider] { inner.venues }

  public func subscribe(_ symbols: [String]) {
    inner.subscribe(symbols)
    if !symbols.isEmpty { release() }
  }

  public func unsubscribe(_ symbols: [String]) { inner.unsubscribe(symbols) }

  /// Stops the source; one that has not started yet starts only to see the request and end.
  public func stop(_ reason: StopReason) {
    inner.stop(reason)
    release()
  }

  /// Whether the source has started (a symbol was asked for, or it was stopped).
  public var hasStarted: Bool { state.withLock { $0.released } }

  public func run() async -> FeedOutcome {
    await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { state -> Bool in
        if state.released { return true }
        state.waiter = waiting
        return false
      }
      if resumeNow { waiting.resume() }
    }
    return await inner.run()
  }

  private func release() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.released = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}

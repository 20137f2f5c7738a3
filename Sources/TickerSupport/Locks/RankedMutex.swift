import Synchronization

/// A `Mutex` with a place in the lock order (`LockRank`). Debug builds check every acquisition
/// (`LockOrderChecker`): taking it while this thread holds a lock of the same or a later rank
/// traps, naming both. Release builds take the mutex and nothing else.
public struct RankedMutex<Value: ~Copyable>: ~Copyable, Sendable {
  @usableFromInline let mutex: Mutex<Value>
  #if DEBUG
    /// nil: not checked (a channel off the fast path).
    @usableFromInline let rank: LockRank?
  #endif

  public init(_ value: consuming sending Value, rank: LockRank?) {
    mutex = Mutex(value)
    #if DEBUG
      self.rank = rank
    #endif
  }

  @inlinable @inline(__always)
  public borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    #if DEBUG
      if let rank { LockOrderChecker.willAcquire(rank) }
      defer { if let rank { LockOrderChecker.released(rank) } }
    #endif
    return try mutex.withLock(body)
  }
}

#if DEBUG
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Debug builds only: the ranked locks (`RankedMutex`) each thread holds, innermost last. Taking
  /// a lock whose rank is not after the innermost one held is a lock-order violation (two threads
  /// taking the same two locks in opposite orders can deadlock), and so is using a value outside
  /// the lock its invariant puts it under (`requireHeld`): either traps, naming the locks. A
  /// thread inside `violations(in:)` records them instead, for tests.
  public enum LockOrderChecker {
    public enum Violation: Sendable, Equatable, CustomStringConvertible {
      /// `acquiring` was taken while `holding`, of the same or a later rank, was held.
      case outOfOrder(acquiring: LockRank, holding: LockRank)
      /// What must be used under `lock` was used without it.
      case notHeld(LockRank, by: String)

      public var description: String {
        switch self {
        case .outOfOrder(let acquiring, let holding):
          "lock order violated: acquiring \(acquiring) (rank \(acquiring.rawValue)) while holding "
            + "\(holding) (rank \(holding.rawValue))"
        case .notHeld(let lock, let user):
          "\(user) used without holding \(lock)"
        }
      }
    }

    @usableFromInline
    static func willAcquire(_ rank: LockRank) {
      let thread = HeldLocks.current
      if let innermost = thread.ranks.last, rank <= innermost {
        report(.outOfOrder(acquiring: rank, holding: innermost), on: thread)
      }
      thread.ranks.append(rank)
    }

    @usableFromInline
    static func released(_ rank: LockRank) {
      let thread = HeldLocks.current
      // Scoped (`withLock`), so released innermost first.
      if let index = thread.ranks.lastIndex(of: rank) { thread.ranks.remove(at: index) }
    }

    /// Reports `user` if this thread does not hold a lock of rank `lock`.
    public static func requireHeld(_ lock: LockRank, by user: @autoclosure () -> String) {
      let thread = HeldLocks.current
      if !thread.ranks.contains(lock) { report(.notHeld(lock, by: user()), on: thread) }
    }

    private static func report(_ violation: Violation, on thread: HeldLocks) {
      guard thread.recorded != nil else { preconditionFailure(violation.description) }
      thread.recorded?.append(violation)
    }

    /// Runs `body` on this thread, recording the violations it commits instead of trapping.
    public static func violations(in body: () throws -> Void) rethrows -> [Violation] {
      let thread = HeldLocks.current
      let outer = thread.recorded
      thread.recorded = []
      defer { thread.recorded = outer }
      try body()
      return thread.recorded ?? []
    }

    /// The ranks this thread holds now, outermost first.
    public static var held: [LockRank] { HeldLocks.current.ranks }
  }

  /// One thread's held ranks, in a thread-specific slot.
  private final class HeldLocks {
    var ranks: [LockRank] = []
    /// Inside `violations(in:)`: what it found so far.
    var recorded: [LockOrderChecker.Violation]?

    static var current: HeldLocks {
      if let slot = pthread_getspecific(key) {
        return Unmanaged<HeldLocks>.fromOpaque(slot).takeUnretainedValue()
      }
      let made = HeldLocks()
      pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
      return made
    }

    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      let created = pthread_key_create(&key) { slot in
        #if canImport(Glibc)
          guard let slot else { return }
        #endif
        Unmanaged<HeldLocks>.fromOpaque(slot).release()
      }
      precondition(created == 0, "pthread_key_create failed: \(created)")
      return key
    }()
  }
#endif

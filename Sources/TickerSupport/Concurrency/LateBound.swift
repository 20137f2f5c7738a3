import Synchronization

/// A value that closures made before it existed will read: bound once it is made (a session's
/// hook reaching its session, a feed's reports reaching the hub made after the feed). Nil until
/// bound; any thread may read it.
public final class LateBound<Value: Sendable>: Sendable {
  private let stored = Mutex<Value?>(nil)

  public init() {}

  /// Binds the value (again: the last binding wins).
  public func bind(_ value: Value) { stored.withLock { $0 = value } }

  /// The value once bound.
  public var value: Value? { stored.withLock { $0 } }
}

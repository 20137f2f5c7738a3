import Synchronization

/// A corelibs defect noticed on a live URLSession connection, shared by the engine that falls
/// back to the native engine (`FallbackEngine`) and the connections that notice it.
public final class URLSessionDefects: Sendable {
  private let found = Mutex<String?>(nil)
  private let onFirst: @Sendable (String) -> Void

  /// `onFirst` is told about the first defect (the ticker prints it as a warning).
  public init(onFirst: @escaping @Sendable (String) -> Void = { _ in }) {
    self.onFirst = onFirst
  }

  /// The first defect noticed, if any.
  public var first: String? { found.withLock { $0 } }

  /// Records a defect; the first one is passed on.
  public func report(_ defect: String) {
    let isFirst = found.withLock { found -> Bool in
      guard found == nil else { return false }
      found = defect
      return true
    }
    if isFirst { onFirst(defect) }
  }
}

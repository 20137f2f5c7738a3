/// A bounded FIFO that makes room by dropping its oldest elements: at most `capacity` elements
/// and `byteLimit` bytes (each element's size given when it is added). Pure; not thread-safe (the
/// publisher keeps it under a lock).
///
/// Appending never fails and never waits: the newest element always goes in (an element larger
/// than `byteLimit` on its own is refused and counted as dropped), the oldest ones go out, and
/// `dropped` counts every element lost that way.
public struct DropOldestBuffer<Element> {
  public let capacity: Int
  public let byteLimit: Int
  private var elements: [(element: Element, bytes: Int)] = []
  /// Where the oldest element still held is in `elements`.
  private var head = 0
  public private(set) var bytes = 0
  /// Elements dropped since the buffer was made.
  public private(set) var dropped = 0

  public init(capacity: Int, byteLimit: Int) {
    self.capacity = max(1, capacity)
    self.byteLimit = max(1, byteLimit)
  }

  public var count: Int { elements.count - head }
  public var isEmpty: Bool { count == 0 }

  /// Adds `element` (of `size` bytes) as the newest; returns how many old elements were dropped
  /// to make room (or 1 if `element` itself is too big to hold).
  @discardableResult
  public mutating func append(_ element: Element, bytes size: Int) -> Int {
    guard size <= byteLimit else {
      dropped += 1
      return 1
    }
    var removed = 0
    while count > 0 && (count >= capacity || bytes + size > byteLimit) {
      bytes -= elements[head].bytes
      head += 1
      removed += 1
    }
    dropped += removed
    elements.append((element, size))
    bytes += size
    compactIfWorthIt()
    return removed
  }

  /// Takes the oldest elements, in order, up to about `maxBytes` (always at least one when there
  /// is one).
  public mutating func take(maxBytes: Int) -> [Element] {
    var taken: [Element] = []
    var size = 0
    while head < elements.count {
      let next = elements[head]
      if !taken.isEmpty && size + next.bytes > maxBytes { break }
      taken.append(next.element)
      size += next.bytes
      bytes -= next.bytes
      head += 1
    }
    compactIfWorthIt()
    return taken
  }

  /// Empties the buffer, counting what it held as dropped; returns that count.
  @discardableResult
  public mutating func dropAll() -> Int {
    let n = count
    dropped += n
    elements.removeAll(keepingCapacity: false)
    head = 0
    bytes = 0
    return n
  }

  /// Drops the consumed prefix once it is most of the storage (amortised O(1) per element).
  private mutating func compactIfWorthIt() {
    if head == elements.count {
      elements.removeAll(keepingCapacity: elements.count <= 4096)
      head = 0
    } else if head >= 1024 && head * 2 >= elements.count {
      elements.removeSubrange(0..<head)
      head = 0
    }
  }
}

/// A bounded FIFO of messages (byte strings) that makes room by dropping its oldest: at most
/// `capacity` messages and `byteLimit` bytes. Pure; not thread-safe (the publisher keeps it
/// under a lock).
///
/// Appending never fails and never waits: the newest message always goes in (one larger than
/// `byteLimit` on its own is refused and counted as dropped), the oldest go out, and `dropped`
/// counts every message lost that way. The messages live back to back in one byte array (no
/// allocation per message); `take` hands out the oldest as one contiguous run of bytes, ready
/// to write.
public struct DropOldestBuffer: Sendable {
  public let capacity: Int
  public let byteLimit: Int
  /// The messages' bytes; the live ones from `start`.
  private var storage: [UInt8] = []
  private var start = 0
  /// Where each message ends in `storage`; the live ones from `head`.
  private var ends: [Int] = []
  private var head = 0
  /// Messages dropped since the buffer was made.
  public private(set) var dropped = 0

  public init(capacity: Int, byteLimit: Int) {
    self.capacity = max(1, capacity)
    self.byteLimit = max(1, byteLimit)
  }

  public var count: Int { ends.count - head }
  public var isEmpty: Bool { count == 0 }
  /// Bytes held.
  public var bytes: Int { storage.count - start }

  /// Adds `message` as the newest; returns how many old messages were dropped to make room (or
  /// 1 if `message` itself is too big to hold).
  @discardableResult
  public mutating func append(_ message: some Collection<UInt8>) -> Int {
    let size = message.count
    guard size <= byteLimit else {
      dropped += 1
      return 1
    }
    var removed = 0
    while count > 0 && (count >= capacity || bytes + size > byteLimit) {
      start = ends[head]
      head += 1
      removed += 1
    }
    dropped += removed
    compactIfWorthIt()
    storage.append(contentsOf: message)
    ends.append(storage.count)
    return removed
  }

  /// Takes the oldest messages, in order, up to about `maxBytes` (always at least one when there
  /// is one): their bytes back to back, and how many they are.
  public mutating func take(maxBytes: Int) -> (bytes: [UInt8], messages: Int) {
    guard head < ends.count else { return ([], 0) }
    var last = head
    while last + 1 < ends.count && ends[last + 1] - start <= maxBytes { last += 1 }
    let taken = Array(storage[start..<ends[last]])
    let messages = last - head + 1
    start = ends[last]
    head = last + 1
    compactIfWorthIt()
    return (taken, messages)
  }

  /// Empties the buffer, counting what it held as dropped; returns that count.
  @discardableResult
  public mutating func dropAll() -> Int {
    let n = count
    dropped += n
    storage = []
    ends = []
    start = 0
    head = 0
    return n
  }

  /// Drops the consumed prefix once it is most of the storage (amortised O(1) per byte).
  private mutating func compactIfWorthIt() {
    if head == ends.count {
      storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
      ends.removeAll(keepingCapacity: ends.capacity <= 4096)
      start = 0
      head = 0
    } else if start >= 64 << 10 && start * 2 >= storage.count {
      storage.removeSubrange(0..<start)
      ends.removeSubrange(0..<head)
      for i in ends.indices { ends[i] -= start }
      start = 0
      head = 0
    }
  }
}

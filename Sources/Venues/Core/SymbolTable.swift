#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A set of symbols keyed by their UTF-8 bytes, each with a stable index (its insertion order).
///
/// Symbols compare byte for byte, as the venue spells them: not by `String` equality, which is
/// Unicode canonical equivalence (`"\u{212A}RW-BTC" == "KRW-BTC"`), so a server cannot pass the
/// subscription filter with a different spelling of a subscribed symbol.
///
/// Lookups cost a 64-bit hash of the bytes (eight at a time) and one comparison, and a decoder
/// can look up the bytes of a message before any `String` exists: `symbol(matching:)` hands back the subscribed
/// `String` itself, so a quote for a subscribed symbol costs no new string (with symbols over 15
/// bytes, no allocation).
public struct SymbolTable: Sendable, Equatable {
  /// One reference, so that handing the table to a decoder for each message costs one retain.
  /// Copy-on-write: a table grows in place while it is the storage's only holder (amortized
  /// constant time a symbol: the price stage adds each symbol the first time it trades, and with
  /// 1,000 symbols rebuilding the table for each was 20 ms of start-up).
  private final class Storage: @unchecked Sendable {
    // invariant: changed only by SymbolTable's mutating methods, and only while the table holds
    // the sole reference (isKnownUniquelyReferenced); a Storage two holders share is never changed.
    // So no access can overlap a change, and the dynamic exclusivity checks (a tenth of the
    // lookup path's time) are off.
    /// The symbols, in insertion order; a symbol's index is its position here.
    @exclusivity(unchecked) var symbols: [String] = []
    /// Every symbol's UTF-8 bytes, one after another; symbol `i` is at `offsets[i]..<offsets[i + 1]`.
    /// Memory of its own rather than an array: a lookup reads it without retaining anything (an
    /// array read from here inside `withUnsafeBytes` costs a retain and a release a lookup).
    @exclusivity(unchecked) var bytes: UnsafeMutableRawPointer
    @exclusivity(unchecked) var byteCapacity: Int
    @exclusivity(unchecked) var offsets = [0]
    /// Open addressing with linear probing: 0 for an empty slot, else the upper 32 bits of the
    /// symbol's hash (compared before any bytes are) over its index + 1. The capacity is a power
    /// of two at least twice the count.
    @exclusivity(unchecked) var slots: [UInt64]

    init(capacity: Int, byteCapacity: Int = 64) {
      var slots = 2
      while slots < capacity * 2 { slots *= 2 }
      self.slots = [UInt64](repeating: 0, count: slots)
      self.byteCapacity = max(byteCapacity, 1)
      bytes = .allocate(byteCount: self.byteCapacity, alignment: 8)
    }

    deinit { bytes.deallocate() }

    /// The bytes in use.
    var byteCount: Int { offsets[offsets.count - 1] }

    func copy() -> Storage {
      let copy = Storage(capacity: 0, byteCapacity: byteCapacity)
      copy.symbols = symbols
      copy.bytes.copyMemory(from: bytes, byteCount: byteCount)
      copy.offsets = offsets
      copy.slots = slots
      return copy
    }

    /// Appends `key` to `bytes`, growing them (doubled) when full.
    private func appendBytes(_ key: [UInt8]) {
      let count = byteCount
      if count + key.count > byteCapacity {
        let grown = max(byteCapacity * 2, count + key.count)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        moved.copyMemory(from: bytes, byteCount: count)
        bytes.deallocate()
        (bytes, byteCapacity) = (moved, grown)
      }
      key.withUnsafeBytes {
        if let base = $0.baseAddress { (bytes + count).copyMemory(from: base, byteCount: $0.count) }
      }
    }

    /// Adds `symbol` unless it is there; false when it was.
    func append(_ symbol: String) -> Bool {
      let key = Array(symbol.utf8)
      let found = key.withUnsafeBytes { find($0) }
      guard case .empty(let slot, let tag) = found else { return false }
      slots[slot] = tag | UInt64(symbols.count + 1)
      symbols.append(symbol)
      appendBytes(key)
      offsets.append(byteCount + key.count)
      if symbols.count * 2 > slots.count { rehash(capacity: slots.count * 2) }
      return true
    }

    private func rehash(capacity: Int) {
      var grown = [UInt64](repeating: 0, count: capacity)
      let mask = capacity - 1
      for index in symbols.indices {
        let key = UnsafeRawBufferPointer(
          start: bytes + offsets[index], count: offsets[index + 1] - offsets[index])
        let hash = SymbolTable.hash(key)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while grown[slot] != 0 { slot = (slot + 1) & mask }
        grown[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
      }
      slots = grown
    }

    enum Found { case index(Int), empty(slot: Int, tag: UInt64) }

    /// Reads the storage's arrays where they are: passed as arguments, each would be retained
    /// and released on every lookup (about 140 instructions, which the optimizer removes or not
    /// depending on the module graph).
    func find(_ key: UnsafeRawBufferPointer) -> Found {
      let hash = SymbolTable.hash(key)
      let tag = hash & 0xFFFF_FFFF_0000_0000
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = slots[slot]
        if entry == 0 { return .empty(slot: slot, tag: tag) }
        if entry & 0xFFFF_FFFF_0000_0000 == tag {
          let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
          let start = offsets[index]
          if offsets[index + 1] - start == key.count
            && (key.isEmpty
              || memcmp(bytes + start, key.baseAddress!, key.count) == 0)
          {
            return .index(index)
          }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  private var storage: Storage

  public init(_ symbols: some Sequence<String> = [String]()) {
    let symbols = Array(symbols)
    storage = Storage(capacity: symbols.count)
    for symbol in symbols { _ = storage.append(symbol) }
  }

  /// The symbols, in insertion order; a symbol's index is its position here.
  public var symbols: [String] { storage.symbols }
  public var count: Int { storage.symbols.count }
  public var isEmpty: Bool { storage.symbols.isEmpty }

  /// The index of the symbol spelled by `bytes`, if it is in the table.
  public func index(ofBytes bytes: UnsafeRawBufferPointer) -> Int? {
    guard case .index(let index) = storage.find(bytes) else {
      return nil
    }
    return index
  }

  /// The index of `symbol`, if it is in the table (byte for byte).
  public func index(of symbol: String) -> Int? {
    // The bytes where they are; a mutable copy (`withUTF8`) only for a non-native string.
    if let found = symbol.utf8.withContiguousStorageIfAvailable({ index(ofBytes: UnsafeRawBufferPointer($0)) }
    ) {
      return found
    }
    var symbol = symbol
    return symbol.withUTF8 { index(ofBytes: UnsafeRawBufferPointer($0)) }
  }

  public func contains(_ symbol: String) -> Bool { index(of: symbol) != nil }

  /// The table's own string for the symbol spelled by `bytes`: a decoder's way to make a quote
  /// without making a string.
  public func symbol(matching bytes: UnsafeRawBufferPointer) -> String? {
    index(ofBytes: bytes).map { storage.symbols[$0] }
  }

  /// Adds `symbol` at the end unless it is there.
  public mutating func insert(_ symbol: String) {
    guard !contains(symbol) else { return }
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    _ = storage.append(symbol)
  }

  /// Removes `symbol` if it is there; the symbols after it move down one index.
  public mutating func remove(_ symbol: String) {
    guard let index = index(of: symbol) else { return }
    var symbols = storage.symbols
    symbols.remove(at: index)
    self = SymbolTable(symbols)
  }

  /// A 64-bit hash of `bytes`, eight at a time (multiply and shift; not keyed: the table holds
  /// only the user's own symbols, and a lookup probes at most the cluster its hash lands in).
  /// A tail of 1–7 bytes after at least one word is taken as the last eight bytes, overlapping.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let k: UInt64 = 0x9E37_79B9_7F4A_7C15
    let n = bytes.count
    var hash = UInt64(n) &* k
    if n >= 8 {
      var i = 0
      while i + 8 <= n {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
        hash ^= hash >> 29
        i += 8
      }
      if i < n {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) &* k
        hash ^= hash >> 29
      }
    } else if n > 0 {
      var word: UInt64 = 0
      for i in 0..<n { word |= UInt64(bytes[i]) << UInt64(8 * i) }
      hash = (hash ^ word) &* k
      hash ^= hash >> 29
    }
    hash = (hash ^ (hash >> 32)) &* k
    return hash ^ (hash >> 29)
  }

  public static func == (a: SymbolTable, b: SymbolTable) -> Bool {
    a.storage === b.storage
      || (a.storage.offsets == b.storage.offsets
        && memcmp(a.storage.bytes, b.storage.bytes, a.storage.byteCount) == 0)
  }
}

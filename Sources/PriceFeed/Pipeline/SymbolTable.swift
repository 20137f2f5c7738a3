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
/// Lookups cost an FNV-1a hash of the bytes and one comparison, and a decoder can look up the
/// bytes of a message before any `String` exists: `symbol(matching:)` hands back the subscribed
/// `String` itself, so a quote for a subscribed symbol costs no new string (with symbols over 15
/// bytes, no allocation).
public struct SymbolTable: Sendable, Equatable {
  /// Immutable; a change builds a new one (subscriptions change rarely). One reference, so that
  /// handing the table to a decoder for each message costs one retain.
  private final class Storage: Sendable {
    /// The symbols, in insertion order; a symbol's index is its position here.
    let symbols: [String]
    /// Each symbol's UTF-8 bytes, at the same index.
    let keys: [[UInt8]]
    /// Open addressing with linear probing: an index into `symbols`, or -1 for an empty slot.
    /// The capacity is a power of two at least twice the count.
    let slots: [Int32]

    init(symbols: [String]) {
      var unique: [String] = []
      var keys: [[UInt8]] = []
      var capacity = 2
      while capacity < symbols.count * 2 { capacity *= 2 }
      var slots = [Int32](repeating: -1, count: capacity)
      for symbol in symbols {
        let key = Array(symbol.utf8)
        let found = key.withUnsafeBytes { Storage.find($0, keys: keys, slots: slots) }
        guard case .empty(let slot) = found else { continue }
        slots[slot] = Int32(unique.count)
        unique.append(symbol)
        keys.append(key)
      }
      self.symbols = unique
      self.keys = keys
      self.slots = slots
    }

    enum Found { case index(Int), empty(slot: Int) }

    static func find(_ bytes: UnsafeRawBufferPointer, keys: [[UInt8]], slots: [Int32]) -> Found {
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash(bytes)) & mask
      while true {
        let entry = Int(slots[slot])
        if entry < 0 { return .empty(slot: slot) }
        if equal(keys[entry], bytes) { return .index(entry) }
        slot = (slot + 1) & mask
      }
    }
  }

  private var storage: Storage

  public init(_ symbols: some Sequence<String> = [String]()) {
    storage = Storage(symbols: Array(symbols))
  }

  /// The symbols, in insertion order; a symbol's index is its position here.
  public var symbols: [String] { storage.symbols }
  public var count: Int { storage.symbols.count }
  public var isEmpty: Bool { storage.symbols.isEmpty }

  /// The index of the symbol spelled by `bytes`, if it is in the table.
  public func index(ofBytes bytes: UnsafeRawBufferPointer) -> Int? {
    guard case .index(let index) = Storage.find(bytes, keys: storage.keys, slots: storage.slots) else {
      return nil
    }
    return index
  }

  /// The index of `symbol`, if it is in the table (byte for byte).
  public func index(of symbol: String) -> Int? {
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
    storage = Storage(symbols: storage.symbols + [symbol])
  }

  /// Removes `symbol` if it is there; the symbols after it move down one index.
  public mutating func remove(_ symbol: String) {
    guard let index = index(of: symbol) else { return }
    var symbols = storage.symbols
    symbols.remove(at: index)
    storage = Storage(symbols: symbols)
  }

  /// FNV-1a, 64 bits.
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return hash
  }

  private static func equal(_ key: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard key.count == bytes.count else { return false }
    guard !key.isEmpty else { return true }
    return key.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
  }

  public static func == (a: SymbolTable, b: SymbolTable) -> Bool { a.storage.keys == b.storage.keys }
}

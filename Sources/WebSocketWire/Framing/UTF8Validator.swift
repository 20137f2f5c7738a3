/// Incremental UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF), fed any number of chunks: a text message is checked as its fragments, and its
/// frames' partial payloads, arrive, so invalid text fails the connection as soon as the offending
/// byte is seen (RFC 6455 §8.1), not when the message completes.
public struct UTF8Validator: Sendable, Equatable {
  /// Continuation bytes still expected for the current character.
  private var needed: UInt8 = 0
  /// The allowed range of the next continuation byte (narrower after E0, ED, F0, F4).
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF

  public init() {}

  /// Whether everything fed so far ends on a character boundary.
  public var isComplete: Bool { needed == 0 }

  /// Checks `bytes` as the continuation of what was fed before; false at the first invalid byte
  /// (the validator must then be discarded).
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var i = 0
    let n = bytes.count
    while i < n {
      if needed == 0 {
        // ASCII runs, eight bytes at a time.
        while i + 8 <= n, bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          i += 8
        }
        guard i < n else { break }
        let byte = bytes[i]
        i += 1
        switch byte {
        case 0x00...0x7F: continue
        case 0xC2...0xDF: start(1, 0x80, 0xBF)
        case 0xE0: start(2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: start(2, 0x80, 0xBF)
        case 0xED: start(2, 0x80, 0x9F)
        case 0xF0: start(3, 0x90, 0xBF)
        case 0xF1...0xF3: start(3, 0x80, 0xBF)
        case 0xF4: start(3, 0x80, 0x8F)
        default: return false
        }
      } else {
        let byte = bytes[i]
        i += 1
        guard byte >= lower && byte <= upper else { return false }
        needed -= 1
        lower = 0x80
        upper = 0xBF
      }
    }
    return true
  }

  public mutating func feed(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { feed($0) }
  }

  public mutating func feed(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { feed($0) }
  }

  private mutating func start(_ count: UInt8, _ low: UInt8, _ high: UInt8) {
    needed = count
    lower = low
    upper = high
  }
}

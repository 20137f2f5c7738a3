/// Short ASCII texts made as Swift's small strings directly: the bytes, and the count and flags
/// in the last byte, in the string's two words. `String(unsafeUninitializedCapacity:)` makes the
/// same value through the general path (a capacity check, a closure, a UTF-8 check): about 150
/// instructions for a price's text, against about 40 here.
///
/// The layout is Swift's stable string ABI on 64-bit platforms (`_StringObject`: small-string
/// discriminator `0xE0 | count` in the top byte of the second word, little-endian), and it is
/// checked once against strings made the usual way: where it does not hold, `make` answers nil
/// and callers take the general path.
enum SmallASCIIString {
  /// The string of `bytes`, or nil when they are not 1–15 ASCII bytes, or the layout differs.
  @inline(__always)
  static func make(_ bytes: UnsafeRawBufferPointer) -> String? {
    #if (arch(x86_64) || arch(arm64)) && _endian(little)
      let count = bytes.count
      guard count > 0, count <= 15, layoutHolds, let base = bytes.baseAddress else { return nil }
      // The bytes as two little-endian words, by loads within them (overlapping ones OR the
      // same bytes into the same places).
      var low: UInt64
      var high: UInt64 = 0
      if count >= 8 {
        low = base.loadUnaligned(as: UInt64.self)
        if count > 8 {
          high = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> ((16 - count) * 8)
        }
      } else if count >= 4 {
        low =
          UInt64(base.loadUnaligned(as: UInt32.self))
          | UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << ((count - 4) * 8)
      } else {
        let p = base.assumingMemoryBound(to: UInt8.self)
        low =
          UInt64(p[0]) | UInt64(p[count / 2]) << (count / 2 * 8) | UInt64(p[count - 1]) << ((count - 1) * 8)
      }
      low = UInt64(littleEndian: low)
      high = UInt64(littleEndian: high)
      guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
      high |= UInt64(0xE0 | count) << 56
      return unsafeBitCast((low, high), to: String.self)
    #else
      return nil
    #endif
  }

  /// Whether strings made here equal the same strings made the usual way (checked once).
  static let layoutHolds: Bool = {
    #if (arch(x86_64) || arch(arm64)) && _endian(little)
      guard MemoryLayout<String>.size == 16 else { return false }
      for text in ["0", "-1.5", "95372.09", "123456789.012345"] {
        var usual = String(repeating: "x", count: 1)  // a string made at run time
        usual = text
        var words: (UInt64, UInt64) = (0, 0)
        let count = text.utf8.count
        guard count <= 15 else {
          continue  // 16 bytes: not small, and never made here
        }
        withUnsafeMutableBytes(of: &words) { raw in
          for (i, byte) in text.utf8.enumerated() { raw[i] = byte }
        }
        words.1 |= UInt64(0xE0 | count) << 56
        let made = unsafeBitCast(words, to: String.self)
        guard made == usual, made.utf8.count == count, Array(made.utf8) == Array(usual.utf8),
          made.hashValue == usual.hashValue, unsafeBitCast(usual, to: (UInt64, UInt64).self) == words
        else { return false }
      }
      return true
    #else
      return false
    #endif
  }()
}

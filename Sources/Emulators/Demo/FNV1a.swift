/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): a fixed function of the bytes, the same in every
/// process and on every machine — unlike Swift's `Hasher`, which is seeded per process. The demo
/// derives each unknown symbol's start price from it, so a symbol starts where it started before.
enum FNV1a {
  static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// The hash of `bytes`.
  static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash = offsetBasis
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= prime
    }
    return hash
  }

  /// The hash of `text`'s UTF-8 bytes.
  static func hash(_ text: String) -> UInt64 { hash(text.utf8) }
}

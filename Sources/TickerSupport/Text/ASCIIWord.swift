/// Tests of eight bytes at once, read as a little-endian word. Each answers a mask with the high
/// bit set in the bytes that are what it looks for; a borrow only ever starts at such a byte and
/// moves up, so the mask is non-zero exactly when one is there, and its lowest set byte
/// (`trailingZeroBitCount / 8`) is the first one. Bytes above it may be flagged wrongly.
/// Inlinable: the decoders and the escaping test every word of a message with them.
public enum ASCIIWord {
  @inlinable public static var ones: UInt64 { 0x0101_0101_0101_0101 }
  @inlinable public static var highs: UInt64 { 0x8080_8080_8080_8080 }

  /// The bytes equal to `byte`.
  @inlinable @inline(__always) public static func bytes(equalTo byte: UInt8, in w: UInt64) -> UInt64 {
    let x = w ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & highs
  }

  /// The bytes that are not printable ASCII (0x20–0x7E), and backslashes: what neither a JSON
  /// string without escapes nor a terminal line without escapes holds as it is.
  @inlinable @inline(__always) public static func unplain(_ w: UInt64) -> UInt64 {
    let control = (w &- 0x2020_2020_2020_2020) & ~w & highs  // below 0x20
    return control | (w & highs) | bytes(equalTo: 0x7F, in: w) | bytes(equalTo: 0x5C, in: w)
  }
}

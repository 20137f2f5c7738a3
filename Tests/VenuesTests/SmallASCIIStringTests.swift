import Testing

@testable import Venues

/// Small strings made from their bytes are the strings `String(decoding:as:)` makes: equal, the
/// same bytes and count, the same hash, usable like any other; anything but 1–15 ASCII bytes is
/// declined.
@Suite struct SmallASCIIStringTests {
  @Test func layoutHoldsOnThisPlatform() {
    #if (arch(x86_64) || arch(arm64)) && _endian(little)
      #expect(SmallASCIIString.layoutHolds)
    #else
      #expect(!SmallASCIIString.layoutHolds)
    #endif
  }

  @Test func everyLengthAndOffsetEqualsTheUsualString() {
    // Made from inside a larger buffer, at every offset, so that no load strays outside it.
    let source = Array("-0123456789.9876543210-ABCxyz ~!".utf8)
    for count in 0...20 {
      for offset in 0...(source.count - count) {
        let bytes = Array(source[offset..<(offset + count)])
        let usual = String(decoding: bytes, as: UTF8.self)
        let made = source.withUnsafeBytes {
          SmallASCIIString.make(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)]))
        }
        guard (1...15).contains(count) else {
          #expect(made == nil, "\(count)")
          continue
        }
        guard let made else {
          Issue.record("declined \(count) bytes at \(offset)")
          continue
        }
        #expect(made == usual)
        #expect(Array(made.utf8) == bytes)
        #expect(made.count == count && made.utf8.count == count)
        #expect(made.hashValue == usual.hashValue)
        #expect(made + "!" == usual + "!")
        #expect(Set([made, usual]).count == 1)
      }
    }
  }

  @Test func nonASCIIIsDeclined() {
    for bytes: [UInt8] in [[0x80], [0x31, 0xC3, 0xA9], Array("12345678é".utf8), [0xFF, 0x31, 0x32, 0x33]] {
      #expect(bytes.withUnsafeBytes { SmallASCIIString.make($0) } == nil)
    }
  }

  @Test func pricesFromBytesKeepTheirText() {
    for text in ["1", "-1.5", "95372.09", "0.00063", "123456789.01234", "1234567890.123456"] {
      let price = Array(text.utf8).withUnsafeBytes { Price.plain(bytes: $0) }
      #expect(price?.text == text)
      #expect(price == Price(text))
    }
  }
}

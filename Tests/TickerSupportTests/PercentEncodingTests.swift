import Testing

@testable import TickerSupport

/// `PercentEncoding`: each rule its callers state, malformed escapes included.
@Suite struct PercentEncodingTests {
  static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

  @Test("unreserved: letters, digits and -._~ as they are, every other byte escaped in upper case")
  func unreserved() {
    #expect(PercentEncoding.encode("AZaz09-._~", keeping: .unreserved) == "AZaz09-._~")
    #expect(
      PercentEncoding.encode("a b&c=d+e%f/g?h#", keeping: .unreserved) == "a%20b%26c%3Dd%2Be%25f%2Fg%3Fh%23")
    #expect(PercentEncoding.encode("é€", keeping: .unreserved) == "%C3%A9%E2%82%AC")
    #expect(PercentEncoding.encode("", keeping: .unreserved) == "")
  }

  @Test("a request target: ASCII but RFC 3986's excluded characters as it is, % included")
  func requestTarget() {
    #expect(
      PercentEncoding.encode(#"/p?q="<>\^`{|}"#, keeping: .requestTarget)
        == "/p?q=%22%3C%3E%5C%5E%60%7B%7C%7D")
    #expect(PercentEncoding.encode("/a%20b?x=é&y=1+2", keeping: .requestTarget) == "/a%20b?x=%C3%A9&y=1+2")
  }

  @Test("another escape character; bytes outside ASCII escaped whatever the set says")
  func otherEscape() {
    var out: [UInt8] = []
    let letters = PercentEncoding.Kept { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    PercentEncoding.append("a.b_é".utf8, to: &out, keeping: letters, escape: UInt8(ascii: "_"))
    #expect(String(decoding: out, as: UTF8.self) == "a_2Eb_5F_C3_A9")
    let everything = PercentEncoding.Kept { _ in true }
    #expect(PercentEncoding.encode("aé", keeping: everything) == "a%C3%A9")
  }

  @Test("decoding: escapes in either case, every other byte itself; the bytes need not be UTF-8")
  func decode() {
    for plus in [PercentEncoding.Plus.literal, .space] {
      for malformed in [PercentEncoding.Malformed.keptLiterally, .fails] {
        #expect(
          Self.text(PercentEncoding.decode("a%2Fb%2fc%C3%A9", plus: plus, malformed: malformed)) == "a/b/cé")
        #expect(PercentEncoding.decode("%FF%00", plus: plus, malformed: malformed) == [0xFF, 0x00])
        #expect(PercentEncoding.decode("", plus: plus, malformed: malformed) == [])
        #expect(Self.text(PercentEncoding.decode("%2B", plus: plus, malformed: malformed)) == "+")
      }
    }
  }

  @Test("+ is itself, or a space in a query string")
  func plus() {
    #expect(Self.text(PercentEncoding.decode("a+b", plus: .literal, malformed: .fails)) == "a+b")
    #expect(Self.text(PercentEncoding.decode("a+b", plus: .space, malformed: .fails)) == "a b")
    #expect(Self.text(PercentEncoding.decode("a+b%20c", plus: .space, malformed: .keptLiterally)) == "a b c")
  }

  @Test(
    "a malformed escape stands for itself, or the text has no decoding",
    arguments: [
      ("%", "%"), ("%4", "%4"), ("a%4g", "a%4g"), ("%zz", "%zz"), ("%%41", "%A"), ("100%", "100%"),
      ("%é", "%é"), ("%+1", "%+1"), ("%-0", "%-0"), ("%41%", "A%"),
    ])
  func malformed(text: String, kept: String) {
    #expect(Self.text(PercentEncoding.decode(text, plus: .literal, malformed: .keptLiterally)) == kept)
    #expect(PercentEncoding.decode(text, plus: .literal, malformed: .fails) == nil)
  }

  @Test("what encoding makes, decoding gives back")
  func roundTrip() {
    for text in ["", "plain", "a b+c&d=e%f", "κόσμε 비트코인", "\u{0}\u{7F}\n"] {
      for kept in [PercentEncoding.Kept.unreserved, .requestTarget] {
        let encoded = PercentEncoding.encode(text, keeping: kept)
        #expect(encoded.utf8.allSatisfy { $0 < 0x80 })
        if kept.contains(UInt8(ascii: "%")) && text.utf8.contains(UInt8(ascii: "%")) { continue }
        #expect(Self.text(PercentEncoding.decode(encoded, plus: .literal, malformed: .fails)) == text)
      }
    }
  }
}

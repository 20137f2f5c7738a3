import Emulators
import TestSupport
import Testing

@testable import NATS
@testable import TickerSupport

@Suite("Subject escaping", .ownThread)
struct SubjectEscapingTests {
  @Test(
    "docs/nats.md's examples",
    arguments: [
      ("BINANCE:BTCUSDT", "BINANCE:BTCUSDT"), ("KRW-BTC", "KRW-BTC"), ("BTC-USD", "BTC-USD"),
      ("IC MARKETS:1", "IC_20MARKETS:1"), ("BRK.B", "BRK_2EB"), ("OANDA:EUR_USD", "OANDA:EUR_5FUSD"),
      ("A*B>C", "A_2AB_3EC"), ("", "_"), ("é", "_C3_A9"), ("$SYS", "_24SYS"), ("a\tb\r\n", "a_09b_0D_0A"),
    ])
  func examples(symbol: String, token: String) throws {
    #expect(SubjectEscaping.token(symbol) == token)
    #expect(try SubjectEscaping.text(ofToken: token) == symbol)
  }

  @Test("subjects are ticker.<provider>.<symbol>, and parse back")
  func subjects() throws {
    let subject = SubjectEscaping.subject(provider: "finnhub", symbol: "IC MARKETS:1")
    #expect(subject == "ticker.finnhub.IC_20MARKETS:1")
    let parsed = try SubjectEscaping.parse(subject: subject)
    #expect(parsed.provider == "finnhub" && parsed.symbol == "IC MARKETS:1")
    #expect(throws: SubjectEscapingError.notATickerSubject) {
      try SubjectEscaping.parse(subject: "other.a.b")
    }
    #expect(throws: SubjectEscapingError.notATickerSubject) {
      try SubjectEscaping.parse(subject: "ticker.a.b.c")
    }
  }

  /// Symbols from an alphabet heavy in the characters that need escaping, plus any scalar.
  static func randomSymbol(_ random: inout SplitMix64) -> String {
    let alphabet: [Unicode.Scalar] = [
      "A", "z", "0", "9", "-", ":", ".", " ", "*", ">", "_", "%", "$", "\t", "\r", "\n", "/", "é", "€", "😀",
      "\u{0}", "\u{7F}",
    ]
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...24, using: &random) {
      if Bool.random(using: &random) {
        scalars.append(alphabet.randomElement(using: &random)!)
      } else {
        var value = UInt32.random(in: 0...0x10FFFF, using: &random)
        if (0xD800...0xDFFF).contains(value) { value = 0x41 }
        scalars.append(Unicode.Scalar(value)!)
      }
    }
    return String(scalars)
  }

  @Test("round trip over 20,000 random symbols; every token is a valid NATS subject token")
  func roundTrip() throws {
    var random = SplitMix64(seed: 2026)
    for _ in 0..<20_000 {
      let symbol = Self.randomSymbol(&random)
      let token = SubjectEscaping.token(symbol)
      #expect(try SubjectEscaping.text(ofToken: token) == symbol, "\(symbol.debugDescription) → \(token)")
      // Only letters, digits, '-', ':' and '_': no '.', wildcard, whitespace or control byte.
      #expect(!token.isEmpty)
      #expect(token.utf8.allSatisfy { SubjectEscaping.isSafe($0) || $0 == UInt8(ascii: "_") }, "\(token)")
      // The subject has exactly three tokens.
      #expect(SubjectEscaping.subject(provider: "binance", symbol: symbol).split(separator: ".").count == 3)
    }
  }

  @Test("distinct symbols never share a token (10,000 random pairs)")
  func injective() {
    var random = SplitMix64(seed: 7)
    var seen: [String: String] = [:]
    for _ in 0..<10_000 {
      let symbol = Self.randomSymbol(&random)
      let token = SubjectEscaping.token(symbol)
      if let other = seen[token] {
        #expect(other == symbol, "\(other.debugDescription) and \(symbol.debugDescription)")
      }
      seen[token] = symbol
    }
  }

  @Test(
    "only tokens that escaping makes decode",
    arguments: [
      ("", SubjectEscapingError.empty), ("a.b", .unsafeByte(UInt8(ascii: "."), offset: 1)),
      ("a b", .unsafeByte(0x20, offset: 1)), ("_2", .badEscape(offset: 0)), ("_2e", .badEscape(offset: 0)),
      ("_41", .badEscape(offset: 0)), ("x_G0", .badEscape(offset: 1)), ("_C3", .notUTF8),
      ("__", .badEscape(offset: 0)),
    ])
  func rejects(token: String, error: SubjectEscapingError) {
    #expect(throws: error) { try SubjectEscaping.text(ofToken: token) }
  }
}

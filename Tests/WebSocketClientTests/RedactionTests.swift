import Testing

@testable import TickerSupport
@testable import WebSocketClient
@testable import WebSocketWire

/// `Redaction.redact`: a secret is replaced where it stands as a token of its own (a URL's query
/// value, a header value, an echoed value, a word), never inside a longer token.
@Suite struct RedactionTests {
  static func redact(_ text: String, _ secret: String) -> String { Redaction.redact(text, secrets: [secret]) }

  @Test func removesEverySecretAndItsEncodedForm() {
    let secret = "sk live/42+x"
    let encoded = Redaction.percentEncodeQueryValue(secret)
    #expect(encoded == "sk%20live%2F42%2Bx")
    let text = "GET /?token=\(encoded) failed; token \(secret) refused; again \(secret)"
    let redacted = Redaction.redact(text, secrets: [secret, ""])
    #expect(!redacted.contains(secret))
    #expect(!redacted.contains(encoded))
    #expect(redacted == "GET /?token=*** failed; token *** refused; again ***")
  }

  @Test("a scalar that joins the next one into a Character (U+06DD) hides no delimiter")
  func delimitersAfterAPrependedMark() {
    #expect(Redaction.redactQuery("/p?k\u{06DD}=secret&a=b") == "/p?k\u{06DD}=***&a=***")
    #expect(Redaction.redactUserInfo("ws://user:pw\u{06DD}@host/") == "ws://***@host/")
    #expect(Redaction.redactUserInfo("see x\u{06DD}://u:pw@h/") == "see x\u{06DD}://***@h/")
  }

  @Test func redactQueryKeepsPathAndKeys() {
    #expect(Redaction.redactQuery("/ws?token=abc&a=&b") == "/ws?token=***&a=&b")
    #expect(Redaction.redactQuery("/no-query") == "/no-query")
  }

  @Test(
    "a one-letter secret leaves ordinary words and flags alone",
    arguments: [
      "ticker: error: invalid value 'abc' for --max-retries: must be a whole number ≥ 0",
      "ticker: engine native: auto: URLSession cannot do WebSockets here",
      "extra text, exit 64; max-x, x-ray, x.y, e.g., 0x1F, 3x, ax, xa, --x-flag",
    ])
  func oneLetter(text: String) {
    for secret in ["x", "e"] {
      #expect(Self.redact(text, secret) == text, "secret \(secret)")
    }
  }

  @Test("a one-letter secret is still redacted where it stands alone")
  func oneLetterAlone() {
    #expect(Self.redact("x", "x") == "***")
    #expect(Self.redact("token x refused", "x") == "token *** refused")
    #expect(
      Self.redact("invalid value 'x' for --max-retries", "x") == "invalid value '***' for --max-retries")
    #expect(Self.redact("ws://h/?token=x&format=x", "x") == "ws://h/?token=***&format=***")
    #expect(Self.redact("--max-retries x", "x") == "--max-retries ***")
  }

  @Test(
    "a secret that is part of a longer token is left alone",
    arguments: [
      "abc123def", "xabc123", "abc1234", "abc123_suffix", "prefix-abc123", "abc123.example", "a.abc123",
      "éabc123", "abc123ü", "abc123\u{0301}",
    ])
  func partOfLongerToken(text: String) {
    #expect(Self.redact(text, "abc123") == text)
  }

  @Test(
    "a whole token is redacted wherever it stands",
    arguments: [
      ("abc123", "***"),
      ("abc123 was refused", "*** was refused"),
      ("refused: abc123", "refused: ***"),
      ("wss://ws.finnhub.io?token=abc123", "wss://ws.finnhub.io?token=***"),
      ("GET /?token=abc123&format=json HTTP/1.1", "GET /?token=***&format=json HTTP/1.1"),
      ("token=abc123", "token=***"),
      ("Authorization: Bearer abc123", "Authorization: Bearer ***"),
      ("X-Finnhub-Token:abc123", "X-Finnhub-Token:***"),
      (#"{"token":"abc123"}"#, #"{"token":"***"}"#),
      ("value 'abc123' is bad", "value '***' is bad"),
      ("the token abc123.", "the token ***."),
      ("(abc123)", "(***)"),
      ("/home/abc123/x", "/home/***/x"),
      ("--abc123", "--***"),
      ("abc123-", "***-"),
      ("abc123 abc123,abc123", "*** ***,***"),
      ("→abc123←", "→***←"),
      ("abc123\tabc123\n", "***\t***\n"),
    ])
  func wholeToken(text: String, expected: String) {
    #expect(Self.redact(text, "abc123") == expected)
  }

  @Test("overlapping and repeated occurrences: only whole tokens")
  func overlapping() {
    #expect(Self.redact("aaa", "aa") == "aaa")
    #expect(Self.redact("aa aa", "aa") == "*** ***")
    #expect(Self.redact("aa aaa aa", "aa") == "*** aaa ***")
  }

  @Test("the percent-encoded form, as WebSocketURL writes it into the query, in either case of hex")
  func percentEncoded() throws {
    let secret = "sk/live+42"
    let url = try WebSocketURL(parsing: "wss://ws.finnhub.io/").settingQueryItem("token", to: secret)
    #expect(url.target == "/?token=sk%2Flive%2B42")
    let request = "GET \(url.target) HTTP/1.1"
    #expect(Self.redact(request, secret) == "GET /?token=*** HTTP/1.1")
    #expect(Self.redact("GET /?token=sk%2flive%2b42 HTTP/1.1", secret) == "GET /?token=*** HTTP/1.1")
    // An encoded form inside a longer token stays, like the plain one.
    #expect(Self.redact("sk%2Flive%2B42x", secret) == "sk%2Flive%2B42x")
    #expect(Redaction.lowercasingPercentEscapes("A%2FB%C3%A9F") == "A%2fB%c3%a9F")
  }

  @Test(
    "characters that mean something in a pattern are matched literally",
    arguments: ["a.b*c", "(x)+$", #"\d+"#, "[sk]^", "a|b", "?token", "sk.*"])
  func literal(secret: String) {
    #expect(Self.redact("token=\(secret)&x=1", secret) == "token=***&x=1")
    #expect(Self.redact("token \(secret)", secret) == "token ***")
    // Not a pattern: text the pattern would match stays.
    #expect(Self.redact("token=aXbbbc abc", secret) == "token=aXbbbc abc")
  }

  @Test("a secret's edge that is no token character needs no boundary; a mark is bounded like a letter")
  func punctuationEdges() {
    #expect(Self.redact("f(x)g", "(x)") == "f***g")
    #expect(Self.redact("value=-abc", "-abc") == "value=***")
    #expect(Self.redact("a-abc", "-abc") == "a-abc")
    #expect(Self.redact("-abcd", "-abc") == "-abcd")
  }

  @Test("several secrets: the longer first, empty ones ignored; user information too")
  func severalSecrets() {
    let text = "ws://user:pw@h/?token=abc-def abc"
    #expect(Redaction.redact(text, secrets: ["abc", "", "abc-def"]) == "ws://***@h/?token=*** ***")
    #expect(Redaction.redact("nothing here", secrets: []) == "nothing here")
    #expect(Redaction.redact("", secrets: ["x"]) == "")
  }
}

import Testing

@testable import JSON
@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

@Suite(.ownThread) struct FinnhubProviderTests {
  let provider = FinnhubProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("finnhub-session.ndjson")
    let serverTexts = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map(\.body)
    let events = serverTexts.map { provider.decode(.text($0)) }
    let btc = "BINANCE:BTCUSDT"
    let expected: [ProviderEvent] = [
      .quotes([
        quote(btc, "95372.09", 1_768_655_932_976, volume: "0.00063"),
        quote(btc, "95372.1", 1_768_655_933_296, volume: "0.00058"),
      ]),
      .quotes([quote(btc, "95372.1", 1_768_655_933_296, volume: "0.00058")]),
      .quotes([
        quote(btc, "95371.85", 1_768_655_933_402, volume: "0.0121"),
        quote(btc, "95371.9", 1_768_655_933_390, volume: "0.002"),
      ]),
      .quotes([
        quote("AAPL", "122.1", 1_768_655_933_500, volume: "1"),
        quote("AAPL", "122.09", 1_768_655_933_501, volume: "4"),
        quote(btc, "95372.3", 1_768_655_933_510, volume: "0.0009"),
      ]),
      .keepalive,
      .error(
        VenueError(message: "Invalid symbol BINANCE:NOPEUSDT", fatal: false, symbol: "BINANCE:NOPEUSDT")),
      .quotes([quote(btc, "95380", 1_768_655_961_000, volume: "0")]),
      .keepalive,
    ]
    #expect(events == expected)
    #expect(events.first?.quotes.first?.price.text == "95372.09")
    // Quote equality compares prices numerically, so pin the exact texts too.
    let texts = events.flatMap(\.quotes).map(\.price.text)
    #expect(
      texts == [
        "95372.09", "95372.1", "95372.1", "95371.85", "95371.9", "122.1", "122.09", "95372.3", "95380",
      ])
  }

  @Test func fixtureClientMessagesMatchOurSubscribeMessages() throws {
    let lines = try Fixture.session("finnhub-session.ndjson")
    let sent = lines.filter { $0.direction == "C>" }.map(\.body)
    #expect(sent[0] == "{\"type\":\"subscribe\",\"symbol\":\"BINANCE:BTCUSDT\"}")
    #expect(
      provider.subscribeMessages(for: ["BINANCE:BTCUSDT", "AAPL"]) == [.text(sent[0]), .text(sent[1])])
    #expect(provider.unsubscribeMessages(for: ["AAPL"]) == [.text(sent[3])])
  }

  @Test func subscribeEscapesSymbols() throws {
    let messages = provider.subscribeMessages(for: ["IC MARKETS:1", "A\"B\\C"])
    #expect(
      messages == [
        .text(#"{"type":"subscribe","symbol":"IC MARKETS:1"}"#),
        .text(#"{"type":"subscribe","symbol":"A\"B\\C"}"#),
      ])
    guard case .text(let second) = messages[1] else { Issue.record("not text"); return }
    #expect(try JSONParser().parse(second)["symbol"] == .string("A\"B\\C"))
  }

  @Test func endpointSetsToken() throws {
    let base = provider.defaultURL
    #expect(base.host == "ws.finnhub.io" && base.isSecure && base.port == 443)
    let url = provider.endpoint(base: base, token: "abc/def")
    #expect(url.target == "/?token=abc%2Fdef")
    #expect(!url.description.contains("abc"))
    let replaced = provider.endpoint(
      base: try WebSocketURL(parsing: "ws://127.0.0.1:8080/x?token=old&a=1"), token: "new")
    #expect(replaced.target == "/x?a=1&token=new")
    #expect(provider.endpoint(base: base, token: nil) == base)
    #expect(provider.requiresToken)
    #expect(provider.name == "finnhub")
  }

  @Test func anyKeyOrderUnknownKeysAndConditionForms() {
    let text =
      #"{"extra":{"x":[1]},"type":"trade","data":[{"v":1,"t":5,"s":"X","p":1.5,"q":"?","c":["1"]},{"p":2,"s":"X","t":6},{"p":3,"s":"X","t":7,"c":[],"v":null}]}"#
    let event = provider.decode(.text(text))
    #expect(event == .quotes([quote("X", "1.5", 5, volume: "1"), quote("X", "2", 6), quote("X", "3", 7)]))
  }

  @Test func binaryFramesHoldingJSONAreAccepted() {
    let text = #"{"type":"trade","data":[{"p":1E2,"s":"X","t":1}]}"#
    let event = provider.decode(.binary(Array(text.utf8)))
    #expect(event == .quotes([quote("X", "100", 1)]))
    #expect(event.quotes.first?.price.text == "100")
  }

  @Test func badEntryKeepsGoodOnes() {
    let text =
      #"{"type":"trade","data":[{"p":1,"s":"A","t":1},{"p":"2","s":"B","t":2},{"p":3,"s":"C","t":3},5]}"#
    let event = provider.decode(.text(text))
    #expect(
      event
        == .partial(
          [quote("A", "1", 1), quote("C", "3", 3)],
          dropped: [#"data[1]: "p" must be a number"#, "data[3]: must be an object, not a number"]))
    #expect(event.quotes.count == 2)
  }

  @Test(arguments: [
    (
      #"{"type":"trade","data":[{"s":"A","t":1}]}"#,
      "every trade entry was invalid: data[0]: \"p\" must be a number"
    ),
    (
      #"{"type":"trade","data":[{"p":1,"t":1}]}"#,
      "every trade entry was invalid: data[0]: \"s\" must be a non-empty string"
    ),
    (
      #"{"type":"trade","data":[{"p":1,"s":"A","t":1.5}]}"#,
      "every trade entry was invalid: data[0]: \"t\" must be an integer (epoch milliseconds)"
    ),
    (
      #"{"type":"trade","data":[{"p":1,"s":"A","t":1,"c":[1]}]}"#,
      "every trade entry was invalid: data[0]: \"c\" must be an array of strings"
    ),
    (#"{"type":"trade","data":{}}"#, "\"data\" must be an array, not an object"),
    (#"{"type":"trade"}"#, "trade message without \"data\""),
    (#"{"data":[]}"#, "message has no string \"type\""),
    (#"{"type":5}"#, "message has no string \"type\""),
    (#"[1,2]"#, "message must be a JSON object, not an array"),
    (#""trade""#, "message must be a JSON object, not a string"),
    (#"{"type":"trade","data":[{"p":1,"s":"A","t":1}]"#, "invalid JSON: unexpected end of input at byte 46"),
    ("", "invalid JSON: unexpected end of input at byte 0"),
    ("PONG", "invalid JSON: unexpected character 'P' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
  }

  @Test func otherMessageTypes() {
    #expect(provider.decode(.text(#"{"type":"ping"}"#)) == .keepalive)
    #expect(provider.decode(.text(#"{"type":"news","data":[]}"#)) == .ignored("news"))
    #expect(
      provider.decode(.text(#"{"msg":"Subscribing to too many symbols","type":"error"}"#))
        == .error(VenueError(message: "Subscribing to too many symbols", fatal: false)))
    #expect(
      provider.decode(.text(#"{"type":"error"}"#))
        == .error(VenueError(message: "unspecified error", fatal: false)))
    #expect(provider.decode(.text(#"{"type":"trade","data":[]}"#)) == .quotes([]))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 42)
    let seed = Array(
      #"{"type":"trade","data":[{"c":null,"p":95372.09,"s":"BINANCE:BTCUSDT","t":1768655932976,"v":0.00063}]}"#
        .utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        let i = Int(generator.next() % UInt64(bytes.count))
        bytes[i] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.count == 1)
  }
}

/// A tiny deterministic generator for mutation tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

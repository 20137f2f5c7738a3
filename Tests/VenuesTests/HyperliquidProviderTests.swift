import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Hyperliquid's provider: coins, one request per coin, every message shape of the recorded
/// session and of Hyperliquid's documentation, prices and sizes kept as sent.
@Suite(.ownThread) struct HyperliquidProviderTests {
  let provider = HyperliquidProvider()

  func quote(_ coin: String, _ price: String, _ size: String?, _ time: Int64) -> Quote {
    Quote(symbol: coin, price: Price(price)!, volume: size.map { Price($0)! }, time: time)
  }

  /// A `trades` message of these fills.
  func trades(_ fills: String...) -> WebSocketMessage {
    .text(#"{"channel":"trades","data":["# + fills.joined(separator: ",") + "]}")
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("hyperliquid-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let backFill: [(String, String, Int64)] = [
      ("97432.0", "0.00118", 1_791_303_566_229), ("97431.0", "0.0113", 1_791_303_567_962),
      ("97432.0", "0.00021", 1_791_303_570_172), ("97432.0", "0.04", 1_791_303_570_172),
      ("97431.0", "0.00366", 1_791_303_575_292), ("97431.0", "0.1", 1_791_303_578_680),
      ("97430.0", "0.02585", 1_791_303_582_068), ("97431.0", "0.00011", 1_791_303_589_809),
      ("97431.0", "0.00538", 1_791_303_598_841), ("97432.0", "0.0009", 1_791_303_604_961),
    ]
    let expected: [ProviderEvent] = [
      .ignored("connection established"),
      .acknowledged(id: nil),
      .quotes(backFill.map { quote("BTC", $0.0, $0.1, $0.2) }),
      .quotes([quote("BTC", "97431.0", "0.00245", 1_791_303_610_006)]),
      .quotes([
        quote("BTC", "97432.0", "0.0154", 1_791_303_610_572),
        quote("BTC", "97433.0", "0.00987", 1_791_303_610_572),
      ]),
      .quotes([quote("BTC", "97432.0", "0.0023", 1_791_303_611_782)]),
      .keepalive,
      .error(
        VenueError(
          message: #"Invalid subscription: {"type":"trades","coin":"NOPE"}"#, fatal: false, symbol: "NOPE")),
      .quotes([
        quote("BTC", "97434.0", "0.01026", 1_791_303_638_350),
        quote("BTC", "97435.0", "0.2", 1_791_303_638_350),
        quote("BTC", "97435.0", "0.00113", 1_791_303_638_350),
      ]),
    ]
    #expect(events == expected)
    // The text of every price and size, exactly as sent.
    let quotes = events.flatMap(\.quotes)
    #expect(quotes.prefix(3).map(\.price.text) == ["97432.0", "97431.0", "97432.0"])
    #expect(quotes.last?.price.text == "97435.0" && quotes.last?.volume?.text == "0.00113")
    #expect(
      quotes.map { $0.volume?.text } == backFill.map(\.1) + [
        "0.00245", "0.0154", "0.00987", "0.0023",
        "0.01026", "0.2", "0.00113",
      ])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("hyperliquid-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["BTC"], ids: &ids) == [.text(sent[0])])
    #expect(provider.keepalive?.message == .text(sent[1]))
    #expect(provider.subscriptionMessages(from: ["BTC"], to: ["BTC", "NOPE"], ids: &ids) == [.text(sent[2])])
    #expect(ids.last == 0)
  }

  @Test("one request per coin, removals first; nothing when the sets agree")
  func subscriptionChanges() {
    func request(_ method: String, _ coin: String) -> WebSocketMessage {
      .text(#"{"method":"\#(method)","subscription":{"type":"trades","coin":"\#(coin)"}}"#)
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTC", "ETH"], ids: &ids)
        == [request("subscribe", "BTC"), request("subscribe", "ETH")])
    #expect(
      provider.subscriptionMessages(from: ["BTC", "ETH"], to: ["ETH", "kPEPE"], ids: &ids)
        == [request("unsubscribe", "BTC"), request("subscribe", "kPEPE")])
    #expect(provider.subscriptionMessages(from: ["A", "B"], to: ["B", "A"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["A", "B"], to: [], ids: &ids)
        == [request("unsubscribe", "A"), request("unsubscribe", "B")])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    #expect(provider.subscriptionStyle == .incremental && provider.acknowledgement == .perSymbol)
  }

  @Test(arguments: [
    ("BTC", "BTC"), ("btc", "BTC"), ("Eth", "ETH"), ("1000PEPE", "1000PEPE"), ("kPEPE", "kPEPE"),
    ("kpepe", "KPEPE"), ("KPEPE", "KPEPE"), ("k", "K"), ("kBONK2", "kBONK2"),
  ])
  func coinsAreCanonicalised(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: [
    "", "BTC-USD", "PURR/USDC", "@107", "xyz:SP500", "BTC ", "BT\u{1B}C", "ÉTH",
    String(repeating: "A", count: 33),
  ])
  func whatIsNoCoinIsRefusedWithWords(input: String) throws {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("not a Hyperliquid perpetual"))
    #expect(!error.message.contains("\u{1B}"))
  }

  @Test("a perpetual is its coin in USDC; --asset follows the coin")
  func markets() {
    #expect(provider.market(of: "BTC") == Market(base: "BTC", quote: "USDC"))
    #expect(provider.market(of: "kPEPE") == Market(base: "kPEPE", quote: "USDC"))
    #expect(provider.market(of: "btc") == nil && provider.market(of: "PURR/USDC") == nil)
    #expect(provider.mainMarket(for: "btc") == "BTC" && provider.mainMarket(for: "ETH") == "ETH")
    #expect(provider.conversionPair(for: "USDC") == nil)
    #expect(
      provider.exampleSymbol == "BTC" && provider.name == "hyperliquid"
        && provider.displayName == "Hyperliquid")
    #expect(provider.defaultURL.description == "wss://api.hyperliquid.xyz/ws")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
  }

  @Test("the ping every 30 s, scaled; the documented limits; the back-fill is history")
  func duties() throws {
    #expect(
      provider.keepalive == KeepaliveDuty(message: .text(#"{"method":"ping"}"#), interval: .seconds(30)))
    #expect(provider.scaled(by: 0.1).keepalive?.interval == .seconds(3))
    #expect(provider.scaled(by: 0.5).scaled(by: 0.5).keepalive?.interval == .milliseconds(7500))
    #expect(provider.limits == VenueLimits(messagesPerSecond: 33, symbolsPerConnection: 1000))
    #expect(provider.firstQuoteDeadline == nil)
    #expect(provider.backFillsOnSubscribe && provider.sendsHistory && !provider.usesDecodingContext)
  }

  @Test("fills: users, side and hash are not needed; a size may be missing; numbers are read as text")
  func fillShapes() {
    #expect(
      provider.decode(trades(#"{"coin":"ETH","px":"3012.5","time":1791303610006}"#))
        == .quotes([quote("ETH", "3012.5", nil, 1_791_303_610_006)]))
    #expect(
      provider.decode(trades(#"{"coin":"ETH","px":3012.50,"sz":null,"time":"1791303610006"}"#))
        == .quotes([quote("ETH", "3012.50", nil, 1_791_303_610_006)]))
    guard
      case .quotes(let exact) = provider.decode(
        trades(#"{"coin":"kPEPE","px":"0.012340","sz":"1000.0","time":1.7913036E12}"#))
    else {
      Issue.record("not quotes")
      return
    }
    #expect(exact.map(\.price.text) == ["0.012340"] && exact.map { $0.volume?.text } == ["1000.0"])
    #expect(exact.map(\.time) == [1_791_303_600_000])
    #expect(provider.decode(.text(#"{"channel":"trades","data":[]}"#)) == .quotes([]))
    // Binary frames holding the same text read the same.
    let text = #"{"channel":"trades","data":[{"coin":"BTC","px":"1.5","time":2}]}"#
    #expect(provider.decode(.binary(Array(text.utf8))) == provider.decode(.text(text)))
  }

  @Test("malformed fills are dropped and said, the others kept")
  func malformedFills() {
    #expect(
      provider.decode(
        trades(
          #"{"coin":"BTC","px":"1","time":1}"#, #"{"coin":"","px":"2","time":2}"#, "7",
          #"{"coin":"BTC","px":"x","time":3}"#, #"{"coin":"BTC","px":"4","sz":true,"time":4}"#,
          #"{"coin":"BTC","px":"5"}"#, #"{"coin":"BTC","px":"6","time":-6}"#))
        == .partial(
          [quote("BTC", "1", nil, 1)],
          dropped: [
            #"data[1]: "coin" must be a non-empty string"#, "data[2]: must be an object, not a number",
            #"data[3]: "px" must be a decimal string"#, #"data[4]: "sz" must be a decimal string"#,
            #"data[5]: a trade needs "time" (epoch milliseconds)"#,
            #"data[6]: "time" must be epoch milliseconds"#,
          ]))
    #expect(
      provider.decode(trades(#"{"px":"1","time":1}"#))
        == .malformed(#"data[0]: "coin" must be a non-empty string"#))
    #expect(
      provider.decode(.text(#"{"channel":"trades","data":{}}"#))
        == .malformed(#"a trades message needs a "data" array"#))
  }

  @Test("answers, pongs, errors; other channels ignored; what is no message reported")
  func otherMessages() {
    #expect(
      provider.decode(
        .text(
          #"{"channel":"subscriptionResponse","data":{"method":"unsubscribe","subscription":{"type":"trades","coin":"BTC"}}}"#
        ))
        == .acknowledged(id: nil))
    #expect(provider.decode(.text(#"{"channel":"pong"}"#)) == .keepalive)
    #expect(provider.decode(.text("Websocket connection established.")) == .ignored("connection established"))
    #expect(
      provider.decode(.binary(Array("Websocket connection established.".utf8)))
        == .ignored("connection established"))
    #expect(provider.decode(.text(#"{"channel":"l2Book","data":{"coin":"BTC"}}"#)) == .ignored("l2Book"))
    #expect(provider.decode(.text(#"{"data":[]}"#)) == .malformed(#"message has no "channel""#))
    #expect(
      provider.decode(.text(#"{"channel":7}"#)) == .malformed(#""channel" must be a string, not a number"#))
    #expect(provider.decode(.text("[]")) == .malformed("message must be a JSON object, not an array"))
    guard case .malformed(let why) = provider.decode(.text("pong")) else {
      Issue.record("not malformed")
      return
    }
    #expect(why.hasPrefix("invalid JSON"))
  }

  @Test(
    "an error names the coin of the trades subscription it quotes, unless it says it is already so",
    arguments: [
      (#"Invalid subscription: {"type":"trades","coin":"NOPE"}"#, "NOPE"),
      (#"Invalid subscription {"type":"trades","coin":"kNOPE"}"#, "kNOPE"),
      (#"Error: {"method":"subscribe","subscription":{"type":"trades","coin":"X1"}}"#, "X1"),
      (#"Already subscribed: {"type":"trades","coin":"BTC"}"#, nil),
      (#"Already unsubscribed: {"type":"trades","coin":"BTC"}"#, nil),
      (#"Error: {"method":"unsubscribe","subscription":{"type":"trades","coin":"X1"}}"#, nil),
      (#"Invalid subscription: {"type":"l2Book","coin":"BTC"}"#, nil),
      (#"Invalid subscription: {"type":"trades","coin":""}"#, nil),
      (#"Error parsing JSON into valid websocket request: {"method":"subscribe"#, nil),
      ("Too many messages", nil),
      ("} then {", nil),
    ] as [(String, String?)])
  func errors(text: String, coin: String?) {
    let message = #"{"channel":"error","data":"# + JSONEscapingForTests.quoted(text) + "}"
    #expect(provider.decode(.text(message)) == .error(VenueError(message: text, fatal: false, symbol: coin)))
  }

  @Test func errorWithoutText() {
    #expect(
      provider.decode(.text(#"{"channel":"error"}"#))
        == .error(VenueError(message: "unspecified error", fatal: false)))
    #expect(
      provider.decode(.text(#"{"channel":"error","data":{"code":1}}"#))
        == .error(VenueError(message: "unspecified error", fatal: false)))
  }

  @Test("hostile input never traps")
  func hostile() {
    var generator = SystemRandomNumberGenerator()
    for length in [0, 1, 2, 7, 64, 300] {
      for _ in 0..<50 {
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = provider.decode(.binary(bytes))
        _ = provider.decode(.text(String(decoding: bytes, as: UTF8.self)))
      }
    }
    _ = provider.decode(.text(String(repeating: "[", count: 10_000)))
    _ = provider.decode(.text(#"{"channel":"error","data":""# + String(repeating: "{", count: 5_000) + "\"}"))
    _ = provider.decode(.text(#"{"channel":"trades","data":[{"coin":"BTC","px":"1e999999","time":1e999}]}"#))
  }
}

/// JSON string quoting for the tests' own messages (kept apart from the code under test).
enum JSONEscapingForTests {
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

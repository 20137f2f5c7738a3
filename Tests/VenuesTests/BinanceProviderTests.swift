import Testing

@testable import TestSupport
@testable import Venues

@Suite(.ownThread) struct BinanceProviderTests {
  let provider = BinanceProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  static let trade =
    #"{"e":"trade","E":1789404776251,"s":"BTCUSDT","t":5206081234,"p":"78860.00000000","q":"0.00009000","T":1789404776250,"m":true,"M":true}"#

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("binance-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .quotes([quote("BTCUSDT", "78860.00000000", 1_789_404_776_250, volume: "0.00009000")]),
      .acknowledged(id: 1),
      .error(VenueError(name: "2", message: "Invalid request: invalid stream", requestID: 2, fatal: true)),
    ]
    #expect(events == expected)
    #expect(events[0].quotes.map(\.price.text) == ["78860.00000000"])
    #expect(events[0].quotes.map { $0.volume?.text } == ["0.00009000"])
    // The fixture's trade comes wrapped (combined stream) and takes the fast path.
    #expect(provider.fastDecode(.text(lines[1].body)) == events[0])
  }

  @Test("book tickers: wrapped and bare, exact digits, no time, the same through the fast path and the model")
  func bookTickers() {
    let wrapped =
      #"{"stream":"bnbusdt@bookTicker","data":{"u":400900217,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}}"#
    let bare =
      #"{"u":400900217,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}"#
    let expected = Quote(
      symbol: "BNBUSDT", bid: Price("25.35190000")!, bidSize: Price("31.21000000"),
      ask: Price("25.36520000")!,
      askSize: Price("40.66000000"), time: 0)
    for text in [wrapped, bare] {
      #expect(provider.decode(.text(text)) == .quotes([expected]))
      #expect(provider.fastDecode(.text(text)) == .quotes([expected]))
      #expect(provider.decodeThroughModel(.text(text)) == .quotes([expected]))
      #expect(provider.decode(.text(text)).quotes.first?.ask?.size?.text == "40.66000000")
    }
    // Sizes may be missing; a price that is not a decimal string is malformed, never a quote.
    let noSizes = #"{"u":1,"s":"A","b":"1.5","a":"1.6"}"#
    #expect(provider.decode(.text(noSizes)).quotes.first?.ask?.size == nil)
    #expect(provider.fastDecode(.text(#"{"u":1,"s":"A","b":"1.5","a":1.6}"#)) == nil)
    #expect(
      provider.decode(.text(#"{"u":1,"s":"A","b":"1.5","a":1.6}"#))
        == .malformed(#""a" must be a decimal string"#))
    #expect(
      provider.decode(.text(#"{"u":1,"s":"","b":"1.5","a":"1.6"}"#))
        == .malformed(#""s" must be a non-empty string"#))
    // Futures' typed book ticker is another venue's: ignored, as other events.
    #expect(provider.decode(.text(#"{"e":"bookTicker","s":"A","b":"1","a":"2"}"#)) == .ignored("bookTicker"))
    // A trade with the order ids older streams carried stays a trade.
    let trade = #"{"e":"trade","E":1,"s":"A","t":1,"p":"2","q":"1","b":88,"a":50,"T":1,"m":true}"#
    #expect(provider.fastDecode(.text(trade)) == .quotes([quote("A", "2", 1, volume: "1")]))
  }

  @Test("--bid-ask subscribes to <symbol>@bookTicker, by id, as trades")
  func bookTickerSubscriptions() throws {
    let book = try #require(provider.topOfBook)
    #expect(book.stream == .topOfBook && provider.stream == .trades && book.name == "binance")
    var ids = RequestIDs(prefix: "t")
    #expect(
      book.subscriptionMessages(from: ["BTCUSDT"], to: ["ETHUSDT", "BNBUSDT"], ids: &ids) == [
        .text(#"{"method":"UNSUBSCRIBE","params":["btcusdt@bookTicker"],"id":1}"#),
        .text(#"{"method":"SUBSCRIBE","params":["ethusdt@bookTicker","bnbusdt@bookTicker"],"id":2}"#),
      ])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("binance-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: ["BTCUSDT"], to: ["BTCUSDT", "ETHUSDT"], ids: &ids) == [
        .text(sent[0])
      ])
    #expect(ids.last == 1)
  }

  @Test func subscriptionChangesAreOneMessageEachWithFreshIDs() {
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTCUSDT", "ETHUSDT"], ids: &ids)
        == [.text(#"{"method":"SUBSCRIBE","params":["btcusdt@trade","ethusdt@trade"],"id":1}"#)])
    #expect(
      provider.subscriptionMessages(
        from: ["BTCUSDT", "ETHUSDT"], to: ["BTCUSDT", "ETHUSDT", "BNBBTC"], ids: &ids)
        == [.text(#"{"method":"SUBSCRIBE","params":["bnbbtc@trade"],"id":2}"#)])
    #expect(
      provider.subscriptionMessages(from: ["BTCUSDT", "ETHUSDT", "BNBBTC"], to: ["ETHUSDT"], ids: &ids)
        == [.text(#"{"method":"UNSUBSCRIBE","params":["btcusdt@trade","bnbbtc@trade"],"id":3}"#)])
    #expect(
      provider.subscriptionMessages(from: ["ETHUSDT"], to: ["SOLUSDT", "1INCHUSDT"], ids: &ids)
        == [
          .text(#"{"method":"UNSUBSCRIBE","params":["ethusdt@trade"],"id":4}"#),
          .text(#"{"method":"SUBSCRIBE","params":["solusdt@trade","1inchusdt@trade"],"id":5}"#),
        ])
    // Everything off, before closing.
    #expect(
      provider.subscriptionMessages(from: ["SOLUSDT", "1INCHUSDT"], to: [], ids: &ids)
        == [.text(#"{"method":"UNSUBSCRIBE","params":["solusdt@trade","1inchusdt@trade"],"id":6}"#)])
    #expect(ids.last == 6)
  }

  @Test func nothingChangedSendsNothingAndTakesNoID() {
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: ["BTCUSDT"], to: ["BTCUSDT"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["BTCUSDT", "ETHUSDT"], to: ["ETHUSDT", "BTCUSDT"], ids: &ids) == []
    )
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    #expect(ids.last == 0)
  }

  @Test(arguments: [
    ("btcusdt", "BTCUSDT"), ("BTCUSDT", "BTCUSDT"), ("BtcUsdt", "BTCUSDT"), ("1inchusdt", "1INCHUSDT"),
  ])
  func symbolsAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
    #expect(BinanceProvider.streamName(for: canonical) == canonical.lowercased() + "@trade")
  }

  @Test(arguments: [
    "", "BTC-USDT", "btcusdt@trade", "BINANCE:BTCUSDT", "BTC USDT", "@@@bad###", "BTCÜSDT", "/ws",
  ])
  func thingsThatCannotBeSymbolsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as BTCUSDT"))
  }

  @Test func bareAndWrappedTradesDecodeAlike() {
    let bare = provider.decode(.text(Self.trade))
    let wrapped = provider.decode(.text(#"{"stream":"btcusdt@trade","data":\#(Self.trade)}"#))
    let expected = ProviderEvent.quotes([
      quote("BTCUSDT", "78860.00000000", 1_789_404_776_250, volume: "0.00009000")
    ])
    #expect(bare == expected && wrapped == expected)
    #expect(provider.decode(.binary(Array(Self.trade.utf8))) == expected)
    #expect(provider.decodeThroughModel(.text(Self.trade)) == expected)
  }

  @Test func appendingEntryPointAddsTradesAndReturnsEverythingElse() {
    var quotes: [Quote] = []
    #expect(provider.decode(.text(Self.trade), appendingQuotesTo: &quotes) == nil)
    #expect(
      provider.decode(.text(#"{"result":null,"id":7}"#), appendingQuotesTo: &quotes) == .acknowledged(id: 7))
    // An exponent price is not what the fast path reads: the model path decides, and appends.
    let exponent = #"{"e":"trade","s":"X","p":"1.5E2","T":1}"#
    #expect(provider.decode(.text(exponent), appendingQuotesTo: &quotes) == nil)
    #expect(quotes.map(\.price.text) == ["78860.00000000", "150"])
  }

  @Test func acknowledgementsErrorsAndEvents() {
    #expect(provider.decode(.text(#"{"result":null,"id":1}"#)) == .acknowledged(id: 1))
    #expect(provider.decode(.text(#"{"result":["btcusdt@trade"],"id":3}"#)) == .acknowledged(id: 3))
    #expect(provider.decode(.text(#"{"result":null,"id":"abc"}"#)) == .acknowledged(id: nil))
    #expect(provider.decode(.text(#"{"result":null,"id":null}"#)) == .acknowledged(id: nil))
    #expect(
      provider.decode(
        .text(#"{"error":{"code":3,"msg":"Invalid JSON: expected value at line 1 column 1"},"id":null}"#))
        == .error(
          VenueError(name: "3", message: "Invalid JSON: expected value at line 1 column 1", fatal: true)))
    #expect(
      provider.decode(.text(#"{"error":{},"id":4}"#))
        == .error(VenueError(message: "unspecified error", requestID: 4, fatal: true)))
    let shutdown = ProviderEvent.closingSoon("Binance announced a server shutdown")
    #expect(provider.decode(.text(#"{"e":"serverShutdown","E":1789404776251}"#)) == shutdown)
    #expect(provider.decode(.text(#"{"stream":"x","data":{"e":"serverShutdown","E":1}}"#)) == shutdown)
    #expect(provider.decode(.text(#"{"e":"aggTrade","s":"BTCUSDT"}"#)) == .ignored("aggTrade"))
    #expect(
      provider.decode(.text(#"{"stream":"btcusdt@kline_1m","data":{"e":"kline"}}"#)) == .ignored("kline"))
  }

  @Test func tradeTimeFallsBackToTheEventTime() {
    #expect(
      provider.decode(.text(#"{"e":"trade","s":"X","p":"1","E":42}"#)) == .quotes([quote("X", "1", 42)]))
    #expect(
      provider.decode(.text(#"{"e":"trade","s":"X","p":"1","T":null,"E":43}"#))
        == .quotes([quote("X", "1", 43)]))
  }

  @Test(arguments: [
    (#"{"e":"trade","p":"1","T":1}"#, #""s" must be a non-empty string"#),
    (#"{"e":"trade","s":"X","p":1,"T":1}"#, #""p" must be a decimal string"#),
    (#"{"e":"trade","s":"X","p":"1,5","T":1}"#, #""p" is not a decimal number"#),
    (#"{"e":"trade","s":"X","p":" 1","T":1}"#, #""p" is not a decimal number"#),
    (#"{"e":"trade","s":"X","p":"1e999","T":1}"#, #""p" is not a decimal number"#),
    (#"{"e":"trade","s":"X","p":"1","q":0.5,"T":1}"#, #""q" must be a decimal string"#),
    (#"{"e":"trade","s":"X","p":"1","q":"","T":1}"#, #""q" is not a decimal number"#),
    (#"{"e":"trade","s":"X","p":"1","T":"1"}"#, #""T" must be an integer (epoch milliseconds)"#),
    (#"{"e":"trade","s":"X","p":"1","T":1.5}"#, #""T" must be an integer (epoch milliseconds)"#),
    (#"{"e":"trade","s":"X","p":"1"}"#, #"trade has no "T" or "E" time"#),
    (#"{"e":5}"#, #"event has no string "e""#),
    (#"{"stream":"btcusdt@trade"}"#, #"a combined-stream message needs a "data" object"#),
    (#"{"stream":"btcusdt@trade","data":[1]}"#, #"a combined-stream message needs a "data" object"#),
    (#"{"error":"nope","id":1}"#, #""error" must be an object, not a string"#),
    (#"{"id":1}"#, #"not a Binance message: no "e", "stream", "result" or "error""#),
    ("[]", "message must be a JSON object, not an array"),
    (#"{"e":"trade""#, "invalid JSON: unexpected end of input at byte 12"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func hugeNumbersAndGarbageNeverTrap() {
    let inputs = [
      #"{"e":"trade","s":"X","p":"\#(String(repeating: "9", count: 5000))","T":1}"#,
      #"{"e":"trade","s":"X","p":"1","T":\#(String(repeating: "9", count: 400))}"#,
      #"{"result":null,"id":99999999999999999999999}"#,
      String(repeating: "[", count: 100_000),
    ]
    for input in inputs {
      let event = provider.decode(.text(input))
      #expect(event.quotes.allSatisfy { $0.price.value.isFinite }, "\(input.prefix(40))")
    }
    #expect(provider.decode(.text(inputs[2])) == .acknowledged(id: nil))
    #expect(provider.decode(.text(inputs[1])) == .malformed(#""T" must be an integer (epoch milliseconds)"#))
    var generator = SplitMix64(seed: 7)
    let seed = Array(#"{"stream":"btcusdt@trade","data":\#(Self.trade)}"#.utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.count == 1)
  }

  @Test func settings() {
    #expect(provider.name == "binance" && provider.displayName == "Binance")
    #expect(provider.defaultURL.description == "wss://stream.binance.com:9443/stream")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental)
    #expect(provider.limits == VenueLimits(messagesPerSecond: 5, symbolsPerConnection: 1024))
    #expect(provider.keepalive == nil)
    #expect(provider.firstQuoteDeadline == nil)
    #expect(provider.handshakeHeaders.isEmpty)
    let advice = provider.handshakeAdvice(status: 451)
    #expect(advice?.contains("451") == true && advice?.contains("--url") == true)
    #expect(provider.handshakeAdvice(status: 403) == nil)
    #expect(ProviderCatalog.provider(named: "binance")?.name == "binance")
  }
}

import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Bybit's provider: symbols, one request per topic numbered by `req_id`, every message shape of
/// the recorded session and of Bybit's documentation and captures, prices kept as sent.
@Suite(.ownThread) struct BybitProviderTests {
  let provider = BybitProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  /// A `publicTrade` message of `BTCUSDT` with these entries.
  func trades(_ entries: String, topic: String = "publicTrade.BTCUSDT", ts: String = "1788335009483")
    -> String
  {
    #"{"topic":"\#(topic)","ts":\#(ts),"type":"snapshot","data":[\#(entries)]}"#
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("bybit-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .acknowledged(id: 1),
      .quotes([
        quote("BTCUSDT", "79408.3", 1_791_370_935_576, volume: "0.000412"),
        quote("BTCUSDT", "79408.5", 1_791_370_935_576, volume: "0.0126"),
      ]),
      .quotes([quote("BTCUSDT", "79408.5", 1_791_370_935_821, volume: "0.000063")]),
      .quotes([
        quote("BTCUSDT", "79407.91", 1_791_370_935_951, volume: "0.0331"),
        quote("BTCUSDT", "79407.9", 1_791_370_935_951, volume: "0.1"),
        quote("BTCUSDT", "79407.2", 1_791_370_935_951, volume: "0.002519"),
      ]),
      .keepalive,
      .error(
        VenueError(
          message: "Invalid symbol :[publicTrade.NOPEUSDT]", requestID: 2, fatal: false, symbol: "NOPEUSDT")),
      .quotes([quote("BTCUSDT", "79409.4", 1_791_370_955_805, volume: "0.0052")]),
    ]
    #expect(events == expected)
    // The text of every price and size, exactly as sent: every trade of a batch, a repeated
    // price too (they are new trades, though each message says "snapshot").
    #expect(
      events.flatMap(\.quotes).map(\.price.text) == [
        "79408.3", "79408.5", "79408.5", "79407.91", "79407.9", "79407.2", "79409.4",
      ])
    #expect(
      events.flatMap(\.quotes).map { $0.volume?.text } == [
        "0.000412", "0.0126", "0.000063", "0.0331", "0.1", "0.002519", "0.0052",
      ])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("bybit-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["BTCUSDT"], ids: &ids) == [.text(sent[0])])
    #expect(provider.keepalive?.message == .text(sent[1]))
    #expect(
      provider.subscriptionMessages(from: ["BTCUSDT"], to: ["BTCUSDT", "NOPEUSDT"], ids: &ids)
        == [.text(sent[2])])
    #expect(ids.last == 2)
  }

  @Test("one topic a request (never over spot's 10), removals first, each with the next id")
  func subscriptionChanges() {
    func request(_ op: String, _ symbol: String, _ id: Int) -> WebSocketMessage {
      .text(#"{"req_id":"\#(id)","op":"\#(op)","args":["publicTrade.\#(symbol)"]}"#)
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTCUSDT", "ETHUSDT"], ids: &ids)
        == [request("subscribe", "BTCUSDT", 1), request("subscribe", "ETHUSDT", 2)])
    #expect(
      provider.subscriptionMessages(from: ["BTCUSDT", "ETHUSDT"], to: ["ETHUSDT", "SOLUSDT"], ids: &ids)
        == [request("unsubscribe", "BTCUSDT", 3), request("subscribe", "SOLUSDT", 4)])
    #expect(provider.subscriptionMessages(from: ["AB", "CD"], to: ["CD", "AB"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["AB", "CD"], to: [], ids: &ids)
        == [request("unsubscribe", "AB", 5), request("unsubscribe", "CD", 6)])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    // Twelve symbols: twelve requests of one topic each.
    let many = (1...12).map { "S\($0)USDT" }
    let messages = provider.subscriptionMessages(from: [], to: many, ids: &ids)
    #expect(messages == many.enumerated().map { request("subscribe", $1, 7 + $0) })
    #expect(ids.last == 18)
  }

  @Test(arguments: [
    ("BTCUSDT", "BTCUSDT"), ("btcusdt", "BTCUSDT"), ("EthBtc", "ETHBTC"), ("1INCHUSDT", "1INCHUSDT"),
  ])
  func symbolsAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: ["", "BTC-USDT", "BTC/USDT", "BTC_USDT", " BTCUSDT", "publicTrade.BTCUSDT", "ÉTHUSDT"])
  func thingsThatCannotBeSymbolsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as BTCUSDT"))
  }

  @Test func marketsSplitAtAKnownQuoteCurrency() {
    #expect(provider.market(of: "BTCUSDT") == Market(base: "BTC", quote: "USDT"))
    #expect(provider.market(of: "ETHUSDC") == Market(base: "ETH", quote: "USDC"))
    #expect(provider.market(of: "ETHBTC") == Market(base: "ETH", quote: "BTC"))
    #expect(provider.market(of: "USDT") == nil)
    #expect(provider.mainMarket(for: "btc") == "BTCUSDT")
    #expect(provider.mainMarket(for: "ETH") == "ETHUSDT")
  }

  @Test("trades: s, p, v and T read; the texts kept; the side, id and flags ignored")
  func tradeEntries() {
    #expect(
      provider.decode(
        .text(
          trades(
            #"{"i":"2290000001202469355","T":1788335009482,"p":"77606.8","v":"0.000712","S":"Buy","seq":113508069853,"s":"BTCUSDT","BT":false,"RPI":false}"#
          ))) == .quotes([quote("BTCUSDT", "77606.8", 1_788_335_009_482, volume: "0.000712")]))
    // The documentation's example is the linear shape: a trailing zero, `L`, a UUID id.
    let linear = provider.decode(
      .text(
        trades(
          #"{"T":1672304486865,"s":"BTCUSDT","S":"Buy","v":"0.001","p":"16578.50","L":"PlusTick","i":"20f43950-d8dd-5b31-9112-a178eb6023af","BT":false,"seq":1783284617}"#
        )))
    #expect(linear == .quotes([quote("BTCUSDT", "16578.50", 1_672_304_486_865, volume: "0.001")]))
    #expect(linear.quotes.map(\.price.text) == ["16578.50"])
    // No size, an empty one, or null: a quote without volume.
    for size in [#""#, #","v":"""#, #","v":null"#] {
      #expect(
        provider.decode(.text(trades(#"{"s":"BTCUSDT","p":"1","T":2\#(size)}"#)))
          == .quotes([quote("BTCUSDT", "1", 2)]))
    }
    // An entry without `s` takes the topic's symbol; without `T`, the message's `ts`.
    #expect(
      provider.decode(.text(trades(#"{"p":"2","v":"0.5"}"#, topic: "publicTrade.ETHUSDT", ts: "9")))
        == .quotes([quote("ETHUSDT", "2", 9, volume: "0.5")]))
    // `T` as a string of digits is read too.
    #expect(
      provider.decode(.text(trades(#"{"s":"BTCUSDT","p":"3","T":"4"}"#)))
        == .quotes([quote("BTCUSDT", "3", 4)]))
    // Several trades: each is a quote, in order; a message without trades has none.
    #expect(
      provider.decode(.text(trades(#"{"s":"BTCUSDT","p":"1","T":1},{"s":"BTCUSDT","p":"1","T":1}"#)))
        == .quotes([quote("BTCUSDT", "1", 1), quote("BTCUSDT", "1", 1)]))
    #expect(provider.decode(.text(trades(""))) == .quotes([]))
    // Another topic is ignored, named by its channel.
    #expect(
      provider.decode(
        .text(
          #"{"topic":"tickers.BTCUSDT","ts":1788335008126,"type":"snapshot","cs":113508069165,"data":{"symbol":"BTCUSDT","lastPrice":"77606.8"}}"#
        )) == .ignored("topic tickers"))
    #expect(
      provider.decode(.text(#"{"topic":"orderbook.50.BTCUSDT","type":"delta","data":{"s":"BTCUSDT"}}"#))
        == .ignored("topic orderbook"))
  }

  @Test("a message with good and bad entries keeps the good ones and says which were dropped")
  func partial() {
    #expect(
      provider.decode(.text(trades(#"{"s":"BTCUSDT","p":"1","T":1},{"s":"BTCUSDT","p":1,"T":2},7"#)))
        == .partial(
          [quote("BTCUSDT", "1", 1)],
          dropped: [#"data[1]: "p" must be a decimal string"#, "data[2]: must be an object, not a number"]))
  }

  @Test func answers() {
    let conn = #""conn_id":"d9avrj8i70nu0j2a80n0-9cfc4""#
    #expect(
      provider.decode(
        .text(#"{"success":true,"ret_msg":"subscribe",\#(conn),"req_id":"12","op":"subscribe"}"#))
        == .acknowledged(id: 12))
    // Without a req_id (2023 captures), and linear's empty ret_msg.
    #expect(
      provider.decode(.text(#"{"success":true,"ret_msg":"subscribe",\#(conn),"op":"subscribe"}"#))
        == .acknowledged(id: nil))
    #expect(
      provider.decode(.text(#"{"success":true,"ret_msg":"",\#(conn),"req_id":"3","op":"subscribe"}"#))
        == .acknowledged(id: 3))
    #expect(
      provider.decode(.text(#"{"success":true,"ret_msg":"unsubscribe","op":"unsubscribe"}"#))
        == .acknowledged(id: nil))
    // A topic held already: what was asked for holds.
    #expect(
      provider.decode(
        .text(
          #"{"success":false,"ret_msg":"error:already subscribed,topic:publicTrade.BTCUSDT",\#(conn),"req_id":"4","op":"subscribe"}"#
        )) == .acknowledged(id: 4))
    // The spot pong (no req_id), the linear one, the private one.
    #expect(
      provider.decode(
        .text(
          #"{"success":true,"ret_msg":"pong","conn_id":"0970e817-426e-429a-a679-ff7f55e0b16a","op":"ping"}"#))
        == .keepalive)
    #expect(
      provider.decode(.text(#"{"success":true,"ret_msg":"pong",\#(conn),"req_id":"ping","op":"ping"}"#))
        == .keepalive)
    #expect(
      provider.decode(
        .text(#"{"req_id":"test","op":"pong","args":["1675418560633"],"conn_id":"cfcb4ocsvfriu23r3er0-1b"}"#))
        == .keepalive)
    #expect(
      provider.decode(.text(#"{"success":true,"ret_msg":"",\#(conn),"op":"auth"}"#)) == .ignored("auth"))
  }

  @Test(
    "refusals: a symbol named is refused alone (not fatal); a subscription refused unnamed ends the request",
    arguments: [
      (
        #"{"success":false,"ret_msg":"Invalid symbol :[publicTrade.NOPEUSDT]","conn_id":"c","req_id":"2","op":"subscribe"}"#,
        VenueError(
          message: "Invalid symbol :[publicTrade.NOPEUSDT]", requestID: 2, fatal: false, symbol: "NOPEUSDT")
      ),
      (
        // The linear feed's words for the same.
        #"{"success":false,"ret_msg":"error:handler not found,topic:publicTrade.NOPEUSDT","conn_id":"c","req_id":"5","op":"subscribe"}"#,
        VenueError(
          message: "error:handler not found,topic:publicTrade.NOPEUSDT", requestID: 5, fatal: false,
          symbol: "NOPEUSDT")
      ),
      (
        #"{"success":false,"ret_msg":"args size >10","op":"subscribe"}"#,
        VenueError(message: "args size >10", fatal: true)
      ),
      (
        #"{"success":false,"ret_msg":"error:handler not found,topic:orderbook.30.BTCUSDT","conn_id":"c","req_id":"6","op":"subscribe"}"#,
        VenueError(message: "error:handler not found,topic:orderbook.30.BTCUSDT", requestID: 6, fatal: true)
      ),
      (
        #"{"success":false,"ret_msg":"error:invalid op","conn_id":"c","req_id":"7","op":"unsubscribe"}"#,
        VenueError(message: "error:invalid op", requestID: 7, fatal: false)
      ),
      (
        #"{"success":false,"ret_msg":"Failed to decode incoming data:readObjectStart: expect { or n, but found h","conn_id":"c"}"#,
        VenueError(
          message: "Failed to decode incoming data:readObjectStart: expect { or n, but found h", fatal: false)
      ),
      (
        #"{"success":false,"op":"subscribe","req_id":"8"}"#,
        VenueError(message: "unspecified error", requestID: 8, fatal: true)
      ),
      (#"{"success":false,"ret_msg":"error","op":"ping"}"#, VenueError(message: "error", fatal: false)),
    ])
  func refusals(text: String, expected: VenueError) {
    #expect(provider.decode(.text(text)) == .error(expected))
  }

  @Test(arguments: [
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","T":1}]}"#,
      #"data[0]: "p" must be a decimal string"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1.","T":1}]}"#,
      #"data[0]: "p" is not a decimal number"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1","v":0.1,"T":1}]}"#,
      #"data[0]: "v" must be a decimal string"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1","v":"x","T":1}]}"#,
      #"data[0]: "v" is not a decimal number"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1"}]}"#,
      #"data[0]: trade has no "T" (epoch milliseconds)"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1","T":1.5}]}"#,
      #"data[0]: "T" must be epoch milliseconds"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1","T":-1}]}"#,
      #"data[0]: "T" must be epoch milliseconds"#
    ),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"BTCUSDT","p":"1","T":true}]}"#,
      #"data[0]: "T" must be a number (epoch milliseconds)"#
    ),
    (#"{"topic":"publicTrade.","data":[{"p":"1","T":1}]}"#, #"data[0]: trade has no "s""#),
    (
      #"{"topic":"publicTrade.BTCUSDT","data":[{"s":"","p":"1","T":1}]}"#,
      #"data[0]: "s" must be a non-empty string"#
    ),
    (#"{"topic":"publicTrade.BTCUSDT","data":{}}"#, #"a publicTrade message needs a "data" array"#),
    (#"{"topic":1}"#, #""topic" must be a string, not a number"#),
    (#"{"op":["ping"]}"#, #""op" must be a string, not an array"#),
    (#"{"op":"subscribe","ret_msg":"subscribe"}"#, #"an answer to "subscribe" has no boolean "success""#),
    (#"{"data":[]}"#, #"not a Bybit message: no "topic", "op" or "success""#),
    (#""pong""#, "message must be a JSON object, not a string"),
    ("pong", "invalid JSON: unexpected character 'p' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 29)
    let seed = Array(
      trades(#"{"i":"1","T":1788335009482,"p":"77606.8","v":"0.000712","S":"Buy","s":"BTCUSDT","BT":false}"#)
        .utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
      var batch: [Quote] = []
      _ = provider.decode(.binary(bytes), appendingQuotesTo: &batch)
    }
    #expect(provider.decode(.binary(seed)).quotes.count == 1)
  }

  @Test("the ping every 20 s (Bybit cuts after 10 minutes without ping-pong or data), scaled when asked")
  func keepalive() {
    #expect(
      provider.keepalive
        == KeepaliveDuty(message: .text(#"{"req_id":"ping","op":"ping"}"#), interval: .seconds(20)))
    #expect(provider.scaled(by: 0.025).keepalive?.interval == .milliseconds(500))
    #expect(provider.scaled(by: 0.5).scaled(by: 0.5).keepalive?.interval == .seconds(5))
  }

  @Test func settings() {
    #expect(provider.name == "bybit" && provider.displayName == "Bybit")
    #expect(provider.defaultURL.description == "wss://stream.bybit.com/v5/public/spot")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental && provider.acknowledgement == .byID)
    #expect(provider.firstQuoteDeadline == nil)
    #expect(provider.limits == VenueLimits())
    #expect(provider.handshakeAdvice(status: 403)?.contains("United States") == true)
    #expect(provider.handshakeAdvice(status: 429) == nil)
    #expect(ProviderCatalog.provider(named: "bybit")?.name == "bybit")
    #expect(ProviderCatalog.all.filter { $0.name == "bybit" }.count == 1, "listed once")
    #expect(ProviderCatalog.qualified("bybit/btcusdt").venue?.name == "bybit")
  }
}

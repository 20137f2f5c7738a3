import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Bitfinex's provider: trading pairs, one `subscribe` per pair, channel ids mapped by the
/// connection's `subscribed` events, the snapshot as history, each trade once (`te`), prices and
/// sizes kept as sent, every message shape of the recorded session and of Bitfinex's documentation.
@Suite(.ownThread) struct BitfinexProviderTests {
  let provider = BitfinexProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: Price(volume)!, time: time)
  }

  /// `texts` decoded in order on one connection.
  func decode(_ texts: [String], context: inout DecodingContext) -> [ProviderEvent] {
    texts.map { provider.decode(.text($0), context: &context) }
  }

  /// A context in which channel 17470 carries tBTCUSD.
  var subscribedContext: DecodingContext {
    var context = DecodingContext()
    context.channels["17470"] = "tBTCUSD"
    return context
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("bitfinex-session.ndjson")
    var context = DecodingContext()
    let events = decode(
      lines.filter { $0.direction == "S>" && $0.kind == "text" }.map(\.body), context: &context)
    let btc = { (price: String, time: Int64, volume: String) in
      self.quote("tBTCUSD", price, time, volume: volume)
    }
    let expected: [ProviderEvent] = [
      .keepalive,
      .acknowledged(id: nil),
      // The snapshot, newest first on the wire: history, in time order.
      .history([
        btc("97409", 1_791_966_049_910, "0.03"), btc("97408", 1_791_966_052_633, "0.00049995"),
        btc("97412", 1_791_966_057_105, "0.5"), btc("97410", 1_791_966_058_842, "0.012"),
        btc("97414", 1_791_966_061_360, "0.00233"), btc("97411", 1_791_966_063_978, "0.1"),
        btc("97411", 1_791_966_063_978, "0.0402"), btc("97412", 1_791_966_064_211, "0.00081204"),
      ]),
      .quotes([btc("97413", 1_791_966_065_392, "0.0125")]), .keepalive,
      .quotes([btc("97411", 1_791_966_065_612, "1.7023900800000002")]), .keepalive,
      .quotes([btc("97415", 1_791_966_065_705, "0.26")]), .keepalive,
      .quotes([btc("97414", 1_791_966_066_870, "0.000114")]), .keepalive,
      .error(VenueError(name: "10300", message: "symbol: invalid", fatal: false, symbol: "tZZZUSD")),
      .keepalive,
      .quotes([btc("97409", 1_791_966_083_402, "0.0044")]), .keepalive,
    ]
    #expect(events == expected)
    #expect(context.channels == ["17470": "tBTCUSD"])
    // The text of every price and size, exactly as sent (the float's digits included).
    #expect(events.flatMap(\.quotes).map(\.price.text) == ["97413", "97411", "97415", "97414", "97409"])
    #expect(
      events.flatMap(\.quotes).map { $0.volume?.text }
        == ["0.0125", "1.7023900800000002", "0.26", "0.000114", "0.0044"])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("bitfinex-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["tBTCUSD"], ids: &ids) == [.text(sent[0])])
    #expect(
      provider.subscriptionMessages(from: ["tBTCUSD"], to: ["tBTCUSD", "tZZZUSD"], ids: &ids) == [
        .text(sent[1])
      ])
    #expect(ids.last == 0)
  }

  @Test("one subscribe per pair added; a removal says nothing without the connection's channel ids")
  func subscriptionChanges() {
    func subscribe(_ symbol: String) -> WebSocketMessage {
      .text(#"{"event":"subscribe","channel":"trades","symbol":"\#(symbol)"}"#)
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["tBTCUSD", "tDOGE:USD"], ids: &ids)
        == [subscribe("tBTCUSD"), subscribe("tDOGE:USD")])
    #expect(
      provider.subscriptionMessages(from: ["tBTCUSD", "tDOGE:USD"], to: ["tDOGE:USD", "tETHUSD"], ids: &ids)
        == [subscribe("tETHUSD")])
    #expect(
      provider.subscriptionMessages(from: ["tBTCUSD", "tETHUSD"], to: ["tETHUSD", "tBTCUSD"], ids: &ids) == []
    )
    #expect(provider.subscriptionMessages(from: ["tBTCUSD"], to: [], ids: &ids) == [])
    #expect(ids.last == 0)
  }

  @Test("given the connection's channels: unsubscribe by channel id first, then subscribe")
  func subscriptionChangesInContext() {
    var context = DecodingContext()
    for (id, symbol) in [("17470", "tBTCUSD"), ("208", "tETHUSD"), ("5", "tDOGE:USD")] {
      context.channels[id] = symbol
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(
        from: ["tBTCUSD", "tETHUSD", "tDOGE:USD"], to: ["tETHUSD", "tSOLUSD"], ids: &ids, context: context)
        == [
          .text(#"{"event":"unsubscribe","chanId":5}"#), .text(#"{"event":"unsubscribe","chanId":17470}"#),
          .text(#"{"event":"subscribe","channel":"trades","symbol":"tSOLUSD"}"#),
        ])
    // A pair whose answer has not come has no channel to name yet.
    #expect(provider.subscriptionMessages(from: ["tXRPUSD"], to: [], ids: &ids, context: context) == [])
    #expect(
      provider.subscriptionMessages(from: ["tETHUSD"], to: ["tETHUSD"], ids: &ids, context: context) == [])
  }

  @Test(arguments: [
    ("tBTCUSD", "tBTCUSD"), ("BTCUSD", "tBTCUSD"), ("btcusd", "tBTCUSD"), ("tbtcusd", "tBTCUSD"),
    ("tBtcUsd", "tBTCUSD"), ("trxusd", "tTRXUSD"), ("tTRXUSD", "tTRXUSD"), ("TRXUSD", "tTRXUSD"),
    ("btcust", "tBTCUST"), ("doge:usd", "tDOGE:USD"), ("tDOGE:USD", "tDOGE:USD"),
    ("tTESTBTC:TESTUSD", "tTESTBTC:TESTUSD"), ("tBTCF0:USTF0", "tBTCF0:USTF0"),
  ])
  func pairsAreCanonicalised(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.canonicalSymbol(canonical) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: [
    "", "t", "tBTCUS", "BTCUS", "BTC-USD", "BTC/USD", "tBTC:", "t:USD", "tBTC::USD", "tBTC:USD:EUR",
    " tBTCUSD",
    "ÉTHUSD", "tBTC USD", "tBTCUSDT",
  ])
  func whatCannotBeAPairIsRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("(tBTCUSD) or joined by ':' (tDOGE:USD)"), "\(error.message)")
  }

  @Test("USDT and USDC are UST and UDC on Bitfinex; a funding currency is no pair")
  func refusalsSayWhy() throws {
    guard case .failure(let usdt) = provider.canonicalSymbol("BTCUSDT") else {
      Issue.record("BTCUSDT accepted")
      return
    }
    #expect(usdt.message.contains("Bitfinex writes USDT as UST and USDC as UDC (tBTCUST)"))
    guard case .failure(let funding) = provider.canonicalSymbol("fUSD") else {
      Issue.record("fUSD accepted")
      return
    }
    #expect(
      funding.message
        == #""fUSD" is a Bitfinex funding currency: the ticker follows trading pairs, such as tBTCUSD"#)
  }

  @Test("markets: three letters each, or a colon; Bitfinex's UST and UDC are USDT and USDC")
  func markets() {
    #expect(provider.market(of: "tBTCUSD") == Market(base: "BTC", quote: "USD"))
    #expect(provider.market(of: "tBTCUST") == Market(base: "BTC", quote: "USDT"))
    #expect(provider.market(of: "tETHUDC") == Market(base: "ETH", quote: "USDC"))
    #expect(provider.market(of: "tUSTUSD") == Market(base: "USDT", quote: "USD"))
    #expect(provider.market(of: "tDOGE:USD") == Market(base: "DOGE", quote: "USD"))
    #expect(provider.market(of: "tTESTBTC:TESTUSD") == Market(base: "TESTBTC", quote: "TESTUSD"))
    #expect(provider.market(of: "tETHBTC") == Market(base: "ETH", quote: "BTC"))
    for symbol in ["BTCUSD", "tBTCUSDT", "t:USD", "tBTC:", "fUSD", ""] {
      #expect(provider.market(of: symbol) == nil)
    }
    #expect(provider.mainMarket(for: "btc") == "tBTCUSD")
    #expect(provider.mainMarket(for: "DOGE") == "tDOGE:USD")
    #expect(provider.mainMarket(for: "USDT") == "tUSTUSD")
    for asset in ["USD", "", "B-C", "ÉTH"] { #expect(provider.mainMarket(for: asset) == nil) }
  }

  @Test(
    "te: one quote; AMOUNT's sign is the taker's side, the size its absolute value; fields appended later are ignored"
  )
  func trades() {
    var context = subscribedContext
    let events = decode(
      [
        #"[17470,"te",[401597395,1574694478808,0.005,7245.3]]"#,
        #"[17470,"te",[401597396,1574694478809,-0.00081204,7245.30],1044,1574694478817]"#,
        #"[17470,"te",[401597397,1574694478810,-1e-8,7.2453E3,"extra"]]"#,
        // Decimals and times as strings (Bitfinex's `conf` flags, which the ticker sets none of).
        #"[17470,"te",["401597398","1574694478811","2.5","7246"]]"#,
        #"[17470,"te",[401597399,1.574694478812E12,1,7246]]"#,
      ], context: &context)
    #expect(
      events == [
        .quotes([quote("tBTCUSD", "7245.3", 1_574_694_478_808, volume: "0.005")]),
        .quotes([quote("tBTCUSD", "7245.30", 1_574_694_478_809, volume: "0.00081204")]),
        .quotes([quote("tBTCUSD", "7245.3", 1_574_694_478_810, volume: "0.00000001")]),
        .quotes([quote("tBTCUSD", "7246", 1_574_694_478_811, volume: "2.5")]),
        .quotes([quote("tBTCUSD", "7246", 1_574_694_478_812, volume: "1")]),
      ])
    #expect(events[1].quotes.map(\.price.text) == ["7245.30"])
    #expect(events[2].quotes.map { $0.volume?.text } == ["0.00000001"])
    // `tu` repeats the trade of its `te`: printed once.
    #expect(
      provider.decode(.text(#"[17470,"tu",[401597395,1574694478808,0.005,7245.3]]"#), context: &context)
        == .keepalive)
    #expect(provider.decode(.text(#"[17470,"hb"]"#), context: &context) == .keepalive)
    #expect(provider.decode(.text(#"[17470,"hb",3]"#), context: &context) == .keepalive)
  }

  @Test("the snapshot is history, in time order; a channel no subscribed event named is not read")
  func snapshots() {
    var context = subscribedContext
    #expect(
      provider.decode(
        .text(
          #"[17470,[[3,1574694475039,0.005,7244.9],[2,1574694475039,-0.1,7244.8],[1,1574694470000,0.2,7244.7]]]"#
        ),
        context: &context)
        == .history([
          quote("tBTCUSD", "7244.7", 1_574_694_470_000, volume: "0.2"),
          quote("tBTCUSD", "7244.8", 1_574_694_475_039, volume: "0.1"),
          quote("tBTCUSD", "7244.9", 1_574_694_475_039, volume: "0.005"),
        ]))
    #expect(provider.decode(.text("[17470,[]]"), context: &context) == .history([]))
    #expect(
      provider.decode(.text(#"[208,[[1,2,3,4]]]"#), context: &context)
        == .ignored("trades of channel 208, not subscribed on this connection"))
    #expect(
      provider.decode(.text(#"[208,"te",[1,2,3,4]]"#), context: &context)
        == .ignored("trades of channel 208, not subscribed on this connection"))
    // Without a context (a message on its own), no channel is known.
    #expect(
      provider.decode(.text(#"[17470,"te",[1,2,3,4]]"#))
        == .ignored("trades of channel 17470, not subscribed on this connection"))
  }

  @Test("channel ids: mapped by subscribed, by an already-subscribed answer, unmapped by unsubscribed")
  func channelIDs() {
    var context = DecodingContext()
    #expect(
      provider.decode(
        .text(
          #"{"event":"subscribed","channel":"trades","chanId":19111,"symbol":"tBTCUSD","pair":"BTCUSD"}"#),
        context: &context) == .acknowledged(id: nil))
    #expect(context.channels == ["19111": "tBTCUSD"])
    #expect(
      provider.decode(
        .text(
          #"{"channel":"trades","symbol":"tETHUSD","event":"error","msg":"subscribe: dup","code":10301,"chanId":208,"pair":"ETHUSD"}"#
        ), context: &context) == .acknowledged(id: nil))
    #expect(context.channels == ["19111": "tBTCUSD", "208": "tETHUSD"])
    #expect(
      provider.decode(.text(#"[208,"te",[1,2,3,4]]"#), context: &context).quotes.map(\.symbol) == ["tETHUSD"])
    #expect(
      provider.decode(.text(#"{"event":"unsubscribed","status":"OK","chanId":19111}"#), context: &context)
        == .acknowledged(id: nil))
    #expect(context.channels == ["208": "tETHUSD"])
    // Other channels than trades are not the ticker's.
    #expect(
      provider.decode(
        .text(#"{"event":"subscribed","channel":"book","chanId":7,"symbol":"tBTCUSD","prec":"P0"}"#),
        context: &context) == .ignored("subscribed to book"))
    #expect(context.channels == ["208": "tETHUSD"])
  }

  @Test func events() {
    var context = DecodingContext()
    let cases: [(String, ProviderEvent)] = [
      (#"{"event":"info","version":2,"serverId":"5b73a436","platform":{"status":1}}"#, .keepalive),
      (#"{"event":"info","version":2}"#, .keepalive),
      (
        #"{"event":"info","code":20051,"msg":"Stopping. Please try to reconnect"}"#,
        .closingSoon("Stopping. Please try to reconnect")
      ),
      (#"{"event":"info","code":20061,"msg":""}"#, .closingSoon("info 20061")),
      (#"{"event":"info","code":20060,"msg":"Entering in Maintenance mode."}"#, .ignored("info 20060")),
      (#"{"event":"info"}"#, .ignored("info")),
      (#"{"event":"pong","ts":1511545528111,"cid":1234}"#, .keepalive),
      (#"{"event":"conf","status":"OK","flags":65536}"#, .ignored("conf")),
      (#"{"event":"auth","status":"FAILED"}"#, .ignored("auth")),
      (#"[0,"hb"]"#, .keepalive),
      (#"[339521,"fte",[133323064,1574694039003,-6449,0.000176,2]]"#, .ignored("channel message fte")),
      (#"[759362,"cs",1330055495]"#, .ignored("channel message cs")),
    ]
    for (text, expected) in cases {
      #expect(provider.decode(.text(text), context: &context) == expected, "\(text)")
    }
  }

  @Test(
    "errors name the pair they refuse when they answer a subscription; none is fatal",
    arguments: [
      (
        #"{"channel":"trades","symbol":"tNOPEUSD","event":"error","msg":"symbol: invalid","code":10300,"pair":"NOPEUSD"}"#,
        VenueError(name: "10300", message: "symbol: invalid", fatal: false, symbol: "tNOPEUSD")
      ),
      (
        #"{"channel":"trades","symbol":"tICP:USD","event":"error","msg":"subscribe: limit","code":10305,"pair":"ICP:USD"}"#,
        VenueError(name: "10305", message: "subscribe: limit", fatal: false, symbol: "tICP:USD")
      ),
      (
        #"{"event":"error","msg":"event: invalid (nope)","code":10000}"#,
        VenueError(name: "10000", message: "event: invalid (nope)", fatal: false)
      ),
      (
        #"{"event":"error","msg":"unsubscribe: invalid","code":10400,"chanId":5}"#,
        VenueError(name: "10400", message: "unsubscribe: invalid", fatal: false)
      ),
      // Already subscribed, without the channel it names: an error like any other.
      (
        #"{"event":"error","msg":"subscribe: dup","code":10301,"symbol":"tBTCUSD"}"#,
        VenueError(name: "10301", message: "subscribe: dup", fatal: false, symbol: "tBTCUSD")
      ),
      (#"{"event":"error","symbol":""}"#, VenueError(message: "unspecified error", fatal: false)),
    ])
  func errors(text: String, expected: VenueError) {
    #expect(provider.decode(.text(text)) == .error(expected))
  }

  @Test(arguments: [
    ("{}", #"an object without "event""#),
    (#"{"event":1}"#, #""event" must be a string, not a number"#),
    (#""hb""#, "message must be a JSON object or array, not a string"),
    ("[17470]", "a channel message needs a channel id and a payload, not 1 fields"),
    (#"["17470","hb"]"#, "a channel message must start with a whole-number channel id"),
    (#"[17470.5,"hb"]"#, "a channel message must start with a whole-number channel id"),
    (#"[17470,{}]"#, "a channel message's payload must be a string or an array, not an object"),
    (#"[17470,"te"]"#, #"a "te" message needs its trade"#),
    (#"[17470,"te",7]"#, #""te": a trade must be an array, not a number"#),
    (#"[17470,"te",[1,2,3]]"#, #""te": a trade needs ID, MTS, AMOUNT and PRICE, not 3 fields"#),
    (#"[17470,"te",[1.5,2,3,4]]"#, #""te": the trade's ID must be a whole number"#),
    (#"[17470,"te",[1,-2,3,4]]"#, #""te": the trade's MTS must be epoch milliseconds"#),
    (#"[17470,"te",[1,2,"x",4]]"#, #""te": the trade's AMOUNT must be a number"#),
    (#"[17470,"te",[1,2,3,null]]"#, #""te": the trade's PRICE must be a number"#),
    (#"[17470,"tu",[1,2,3]]"#, #""tu": a trade needs ID, MTS, AMOUNT and PRICE, not 3 fields"#),
    (#"[17470,[[1,2,3,4],[1,2]]]"#, "snapshot[1]: a trade needs ID, MTS, AMOUNT and PRICE, not 2 fields"),
    (
      #"{"event":"subscribed","channel":"trades","chanId":"x","symbol":"tBTCUSD"}"#,
      #"a "subscribed" event needs a whole-number "chanId""#
    ),
    (
      #"{"event":"subscribed","channel":"trades","chanId":1}"#,
      #"a "subscribed" event needs a non-empty string "symbol""#
    ),
    (#"{"event":"subscribed"}"#, #"a "subscribed" event needs a string "channel""#),
    (#"{"event":"unsubscribed","status":"OK"}"#, #"an "unsubscribed" event needs a whole-number "chanId""#),
    ("hb", "invalid JSON: unexpected character 'h' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    var context = subscribedContext
    #expect(provider.decode(.text(text), context: &context) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8)), context: &context) == .malformed(reason))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 29)
    let seeds = [
      #"[17470,"te",[1842915709,1791966065612,-1.7023900800000002,97411]]"#,
      #"[17470,[[1842915707,1791966064211,0.00081204,97412],[1842915706,1791966063978,-0.0402,97411]]]"#,
      #"{"event":"subscribed","channel":"trades","chanId":17470,"symbol":"tBTCUSD","pair":"BTCUSD"}"#,
    ].map { Array($0.utf8) }
    for seed in seeds {
      for _ in 0..<1000 {
        var bytes = seed
        for _ in 0..<3 {
          bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
        }
        var context = subscribedContext
        _ = provider.decode(.binary(bytes), context: &context)
        _ = provider.decode(.binary(bytes))
      }
    }
    var context = subscribedContext
    #expect(provider.decode(.binary(seeds[0]), context: &context).quotes.count == 1)
  }

  @Test func settings() {
    #expect(provider.name == "bitfinex" && provider.displayName == "Bitfinex")
    #expect(provider.defaultURL.description == "wss://api-pub.bitfinex.com/ws/2")
    #expect(provider.exampleSymbol == "tBTCUSD")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental && provider.acknowledgement == .perSymbol)
    #expect(provider.keepalive == nil && provider.firstQuoteDeadline == nil)
    #expect(provider.limits == VenueLimits(symbolsPerConnection: 25))
    #expect(provider.usesDecodingContext && provider.sendsHistory && !provider.backFillsOnSubscribe)
    #expect(provider.handshakeAdvice(status: 429)?.contains("20 connections a minute") == true)
    #expect(provider.handshakeAdvice(status: 451) == nil)
    #expect(ProviderCatalog.all.filter { $0.name == "bitfinex" }.count == 1, "listed once")
  }
}

// MARK: Top of book (the `ticker` channel)

extension BitfinexProviderTests {
  /// A context in which channel 17470 carries tBTCUSD's trades and 20051 its ticker, as their
  /// `subscribed` answers said.
  func tickerContext() -> DecodingContext {
    var context = DecodingContext()
    for text in [
      #"{"event":"subscribed","channel":"trades","chanId":17470,"symbol":"tBTCUSD","pair":"BTCUSD"}"#,
      #"{"event":"subscribed","channel":"ticker","chanId":20051,"symbol":"tBTCUSD","pair":"BTCUSD"}"#,
    ] {
      _ = provider.decode(.text(text), context: &context)
    }
    return context
  }

  func book(_ symbol: String, _ bid: String, _ bidSize: String?, _ ask: String, _ askSize: String?) -> Quote {
    Quote(
      symbol: symbol, bid: Price(bid)!, bidSize: bidSize.map { Price($0)! }, ask: Price(ask)!,
      askSize: askSize.map { Price($0)! }, time: 0)
  }

  @Test("the ticker channel: BID, BID_SIZE, ASK, ASK_SIZE read as written, no time, whatever the stream")
  func tickers() {
    for provider in [BitfinexProvider(), BitfinexProvider().topOfBook!] {
      var context = DecodingContext()
      #expect(
        provider.decode(
          .text(
            #"{"event":"subscribed","channel":"ticker","chanId":232591,"symbol":"tBTCUSD","pair":"BTCUSD"}"#),
          context: &context) == .acknowledged(id: nil))
      #expect(context.channels == ["232591": "tBTCUSD"] && context.bookChannels == ["232591"])
      let events = [
        #"[232591,[97250,4.53188652,97251,6.61437813,-1236,-0.0126,97251,1563.21834416,99010,96020]]"#,
        #"[232591,[97249.5,0.00012,97250.00000000002,1.7023900800000002,-1236.5,-0.0127,97250,1563.3,99010,96020]]"#,
        #"[232591,"hb"]"#,
        #"[232591,[1.2e-7,3e1,0.00000013,null,0,0,1.2e-7,5,1,1]]"#,
      ].map { provider.decode(.text($0), context: &context) }
      #expect(
        events == [
          .quotes([book("tBTCUSD", "97250", "4.53188652", "97251", "6.61437813")]),
          .quotes([book("tBTCUSD", "97249.5", "0.00012", "97250.00000000002", "1.7023900800000002")]),
          .keepalive,
          .quotes([book("tBTCUSD", "0.00000012", "30", "0.00000013", nil)]),
        ])
      #expect(events[1].quotes.first?.ask?.price.text == "97250.00000000002")
      #expect(events.flatMap(\.quotes).allSatisfy { $0.time == 0 && $0.isTopOfBook })
    }
  }

  @Test("a ticker channel id is told from a trades one by its subscribed answer; unsubscribed forgets it")
  func tickerChannels() {
    var context = tickerContext()
    #expect(
      context.channels == ["17470": "tBTCUSD", "20051": "tBTCUSD"] && context.bookChannels == ["20051"])
    // The same pair's trades still decode as trades on their own channel.
    #expect(
      provider.decode(.text(#"[17470,"te",[1,1791966065612,-0.5,97411]]"#), context: &context)
        == .quotes([quote("tBTCUSD", "97411", 1_791_966_065_612, volume: "0.5")]))
    #expect(
      provider.decode(.text(#"[20051,[1,2,3,4,5,6,7,8,9,10]]"#), context: &context)
        == .quotes([book("tBTCUSD", "1", "2", "3", "4")]))
    // A ticker's shape on the trades channel, or on a channel no answer named.
    #expect(
      provider.decode(.text(#"[17470,[1,2,3,4]]"#), context: &context)
        == .malformed("a ticker on channel 17470, which carries trades"))
    #expect(
      provider.decode(.text(#"[99,[1,2,3,4]]"#), context: &context)
        == .ignored("ticker of channel 99, not subscribed on this connection"))
    // Already subscribed to the ticker: the answer names its channel, and says which it is.
    #expect(
      provider.decode(
        .text(
          #"{"channel":"ticker","symbol":"tETHUSD","event":"error","msg":"subscribe: dup","code":10301,"chanId":208,"pair":"ETHUSD"}"#
        ), context: &context) == .acknowledged(id: nil))
    #expect(context.bookChannels == ["20051", "208"])
    #expect(
      provider.decode(.text(#"{"event":"unsubscribed","status":"OK","chanId":20051}"#), context: &context)
        == .acknowledged(id: nil))
    #expect(context.bookChannels == ["208"] && context.channels["20051"] == nil)
    #expect(
      provider.decode(.text(#"[20051,[1,2,3,4]]"#), context: &context)
        == .ignored("ticker of channel 20051, not subscribed on this connection"))
    // An id reused for trades is trades again.
    _ = provider.decode(
      .text(#"{"event":"subscribed","channel":"trades","chanId":208,"symbol":"tETHUSD","pair":"ETHUSD"}"#),
      context: &context)
    #expect(context.bookChannels.isEmpty)
  }

  @Test("the top of book subscribes to ticker channels, one per pair, and unsubscribes by channel id")
  func tickerSubscriptions() {
    let top = provider.topOfBook!
    #expect(top.stream == .topOfBook && provider.stream == .trades && top.name == "bitfinex")
    var ids = RequestIDs(prefix: "unused")
    #expect(
      top.subscriptionMessages(from: [], to: ["tBTCUSD", "tDOGE:USD"], ids: &ids) == [
        .text(#"{"event":"subscribe","channel":"ticker","symbol":"tBTCUSD"}"#),
        .text(#"{"event":"subscribe","channel":"ticker","symbol":"tDOGE:USD"}"#),
      ])
    let context = tickerContext()
    #expect(
      top.subscriptionMessages(from: ["tBTCUSD"], to: ["tETHUSD"], ids: &ids, context: context) == [
        .text(#"{"event":"unsubscribe","chanId":17470}"#), .text(#"{"event":"unsubscribe","chanId":20051}"#),
        .text(#"{"event":"subscribe","channel":"ticker","symbol":"tETHUSD"}"#),
      ])
    #expect(ids.last == 0)
    // A refused ticker subscription names its pair, as a trades one does.
    #expect(
      top.decode(
        .text(
          #"{"channel":"ticker","symbol":"tNOPEUSD","event":"error","msg":"symbol: invalid","code":10300,"pair":"NOPEUSD"}"#
        ))
        == .error(VenueError(name: "10300", message: "symbol: invalid", fatal: false, symbol: "tNOPEUSD")))
  }

  @Test(
    "hostile tickers: malformed, never a trap",
    arguments: [
      (#"[20051,[]]"#, "ticker: a ticker needs BID, BID_SIZE, ASK and ASK_SIZE, not 0 fields"),
      (#"[20051,[1,2,3]]"#, "ticker: a ticker needs BID, BID_SIZE, ASK and ASK_SIZE, not 3 fields"),
      (#"[20051,[null,2,3,4]]"#, "ticker: the ticker's BID must be a number, not null"),
      (#"[20051,[1,2,[3],4]]"#, "ticker: the ticker's ASK must be a number, not an array"),
      (#"[20051,[1,true,3,4]]"#, "ticker: the ticker's BID_SIZE must be a number, not a boolean"),
      (#"[20051,["x",2,3,4]]"#, "ticker: the ticker's BID is not a decimal number"),
      (#"[20051,[1,2,3,"4e"]]"#, "ticker: the ticker's ASK_SIZE is not a decimal number"),
      (#"[20051,[[1,2,3,4]]]"#, "ticker: a ticker needs BID, BID_SIZE, ASK and ASK_SIZE, not 1 fields"),
    ])
  func hostileTickers(text: String, reason: String) {
    var context = tickerContext()
    #expect(provider.decode(.text(text), context: &context) == .malformed(reason))
  }

  @Test("a huge ticker is read to its fourth field; mangled ones never trap")
  func hugeAndGarbageTickers() {
    var context = tickerContext()
    let huge = "[20051,[1,2,3,4," + Array(repeating: "5", count: 200_000).joined(separator: ",") + "]]"
    #expect(provider.decode(.text(huge), context: &context) == .quotes([book("tBTCUSD", "1", "2", "3", "4")]))
    var generator = SplitMix64(seed: 29)
    let seed = Array(
      #"[20051,[97250,4.53188652,97251,6.61437813,-1236,-0.0126,97251,1563.21834416,99010,96020]]"#.utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes), context: &context)
    }
    #expect(context.channels.count == 2)
    #expect(provider.decode(.binary(seed), context: &context).quotes.count == 1)
  }
}

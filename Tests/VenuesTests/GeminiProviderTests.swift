import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Gemini's provider: symbols run together, one subscribe per symbol, every message shape of the
/// recorded session and of Gemini's documentation, prices kept as sent, the first book's trades
/// as history, and the refusal that names no symbol named from the connection's context.
@Suite(.ownThread) struct GeminiProviderTests {
  let provider = GeminiProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  /// A `trade` message with these members after `symbol`.
  func trade(_ members: String, symbol: String = "BTCUSD") -> String {
    #"{"type":"trade","symbol":"\#(symbol)",\#(members)}"#
  }

  static func serverTexts() throws -> [String] {
    try Fixture.session("gemini-session.ndjson").filter { $0.direction == "S>" && $0.kind == "text" }.map(
      \.body)
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let events = try Self.serverTexts().map { provider.decode(.text($0)) }
    guard case .history(let past) = events.first else {
      Issue.record("the first book is not history: \(String(describing: events.first))")
      return
    }
    // The 50 trades the first book folds in, oldest first; the newest is the starting price.
    #expect(past.count == 50)
    #expect(past.first == quote("BTCUSD", "97426.08", 1_791_469_047_078, volume: "0.00004473"))
    #expect(past.last == quote("BTCUSD", "97412.58", 1_791_469_264_038, volume: "0.0013"))
    #expect(past.map(\.time) == past.map(\.time).sorted())
    let book = ProviderEvent.ignored("l2_updates")
    let expected: [ProviderEvent] = [
      .quotes([quote("BTCUSD", "97412.61", 1_791_469_265_458, volume: "0.00021")]), book,
      .quotes([quote("BTCUSD", "97412.58", 1_791_469_266_621, volume: "0.0413")]),
      .quotes([quote("BTCUSD", "97412.55", 1_791_469_266_621, volume: "0.00587")]), book, .keepalive, book,
      .quotes([quote("BTCUSD", "97412.59", 1_791_469_271_329, volume: "0.0021")]), book,
      .error(VenueError(name: "NoValidTradingPairs", message: "no valid trading pairs", fatal: false)), book,
      .keepalive, .quotes([quote("BTCUSD", "97412.55", 1_791_469_275_681, volume: "0.05")]), book,
    ]
    #expect(Array(events.dropFirst()) == expected)
    // The text of every price and size, exactly as sent.
    let trades = events.flatMap(\.quotes)
    #expect(trades.map(\.price.text) == ["97412.61", "97412.58", "97412.55", "97412.59", "97412.55"])
    #expect(trades.map { $0.volume?.text } == ["0.00021", "0.0413", "0.00587", "0.0021", "0.05"])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("gemini-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["BTCUSD"], ids: &ids) == [.text(sent[0])])
    #expect(
      provider.subscriptionMessages(from: ["BTCUSD"], to: ["BTCUSD", "NOPEUSD"], ids: &ids) == [
        .text(sent[1])
      ])
    #expect(ids.last == 0)
  }

  @Test("one subscribe per symbol added; one unsubscribe naming those removed, first")
  func subscriptionChanges() {
    func request(_ type: String, _ symbols: String) -> WebSocketMessage {
      .text(#"{"type":"\#(type)","subscriptions":[{"name":"l2","symbols":[\#(symbols)]}]}"#)
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTCUSD", "ETHUSD"], ids: &ids)
        == [request("subscribe", #""BTCUSD""#), request("subscribe", #""ETHUSD""#)])
    #expect(
      provider.subscriptionMessages(
        from: ["BTCUSD", "ETHUSD", "LTCUSD"], to: ["ETHUSD", "SOLUSD"], ids: &ids)
        == [request("unsubscribe", #""BTCUSD","LTCUSD""#), request("subscribe", #""SOLUSD""#)])
    #expect(provider.subscriptionMessages(from: ["AB", "CD"], to: ["CD", "AB"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["AB", "CD"], to: [], ids: &ids)
        == [request("unsubscribe", #""AB","CD""#)])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
  }

  @Test(arguments: [
    ("BTCUSD", "BTCUSD"), ("btcusd", "BTCUSD"), ("EthBtc", "ETHBTC"), ("1inchusd", "1INCHUSD"),
    ("btcgusdperp", "BTCGUSDPERP"),
  ])
  func symbolsAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: ["", "BTC-USD", "BTC/USD", "BTC_USD", " BTCUSD", "ÉTHUSD", "btcusd\n"])
  func thingsThatCannotBeSymbolsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as BTCUSD"))
  }

  @Test(
    "markets split at a known quote currency",
    arguments: [
      ("BTCUSD", "BTC", "USD"), ("BTCUSDT", "BTC", "USDT"), ("ETHBTC", "ETH", "BTC"),
      ("BTCGUSD", "BTC", "GUSD"),
      ("PAXGUSD", "PAXG", "USD"), ("USDTUSD", "USDT", "USD"), ("GUSDSGD", "GUSD", "SGD"),
      ("BTCEUR", "BTC", "EUR"),
      ("LTCBCH", "LTC", "BCH"), ("BTCDAI", "BTC", "DAI"), ("1INCHUSD", "1INCH", "USD"),
    ])
  func markets(symbol: String, base: String, quote: String) {
    #expect(provider.market(of: symbol) == Market(base: base, quote: quote))
  }

  @Test func marketsThatAreNone() {
    for symbol in ["BTCGUSDPERP", "USD", "ABCXYZ", ""] {
      #expect(provider.market(of: symbol) == nil, "\(symbol)")
    }
    #expect(provider.mainMarket(for: "btc") == "BTCUSD")
    #expect(provider.mainMarket(for: "ETH") == "ETHUSD")
  }

  @Test("trades: price, quantity, timestamp and symbol read; the texts kept; the rest ignored")
  func trades() {
    #expect(
      provider.decode(
        .text(
          trade(
            #""event_id":1,"timestamp":1791469265458,"price":"97412.61","quantity":"0.00021","side":"buy""#)))
        == .quotes([quote("BTCUSD", "97412.61", 1_791_469_265_458, volume: "0.00021")]))
    // The documentation's example: trailing zeros stay, `tid` is not read.
    let docs = provider.decode(
      .text(
        trade(
          #""event_id":3575573053,"timestamp":151231241,"price":"9004.21000000","quantity":"0.09110000","side":"buy","tid":2840140800042677"#
        )))
    #expect(docs.quotes.map(\.price.text) == ["9004.21000000"])
    #expect(docs.quotes.map { $0.volume?.text } == ["0.09110000"])
    // No quantity, null or empty: a quote without volume. A block trade is a trade.
    for size in [#""#, #","quantity":null"#, #","quantity":"""#] {
      #expect(
        provider.decode(.text(trade(#""timestamp":2,"price":"1","side":"block"\#(size)"#)))
          == .quotes([quote("BTCUSD", "1", 2)]))
    }
    // A time as a string or in exponent form, a price as a number: read the same way.
    #expect(
      provider.decode(.text(trade(#""timestamp":"3","price":"1""#))) == .quotes([quote("BTCUSD", "1", 3)]))
    #expect(
      provider.decode(.text(trade(#""timestamp":1.791469265458E12,"price":97412.61"#)))
        == .quotes([quote("BTCUSD", "97412.61", 1_791_469_265_458)]))
  }

  @Test("the first book: its trades are history, oldest first, the book's symbol where an entry has none")
  func firstBook() {
    let text =
      #"{"type":"l2_updates","symbol":"ETHUSD","changes":[["buy","1.00","2"]],"trades":[{"type":"trade","symbol":"ETHUSD","event_id":9,"timestamp":30,"price":"3.00","quantity":"1","side":"buy"},{"timestamp":20,"price":"2.00"},{"symbol":"ETHUSD","eventid":7,"timestamp":20,"price":"2.50","tid":7}],"auction_events":[]}"#
    // Gemini lists the newest first: within one millisecond too, so the later in the list is older.
    #expect(
      provider.decode(.text(text))
        == .history([
          quote("ETHUSD", "2.50", 20), quote("ETHUSD", "2.00", 20), quote("ETHUSD", "3.00", 30, volume: "1"),
        ]))
    #expect(
      provider.decode(.text(#"{"type":"l2_updates","symbol":"ETHUSD","changes":[],"trades":[]}"#))
        == .history([]))
    // A malformed entry is left out of the history; all of them malformed, the message is.
    #expect(
      provider.decode(
        .text(#"{"type":"l2_updates","symbol":"A","changes":[],"trades":[7,{"timestamp":1,"price":"1"}]}"#))
        == .history([quote("A", "1", 1)]))
    #expect(
      provider.decode(.text(#"{"type":"l2_updates","symbol":"A","changes":[],"trades":[7,{"price":"1"}]}"#))
        == .malformed(
          #"l2_updates: trades[0]: must be an object, not a number; trades[1]: trade has no "timestamp" (epoch milliseconds)"#
        ))
  }

  @Test("book changes, heartbeats and other feeds: nothing to print")
  func others() {
    #expect(
      provider.decode(
        .text(#"{"type":"l2_updates","symbol":"BTCUSD","changes":[["sell","9160.20","0.1921229751"]]}"#))
        == .ignored("l2_updates"))
    #expect(
      provider.decode(.text(#"{"type":"l2_updates","symbol":"BTCUSD","changes":[],"trades":null}"#))
        == .ignored("l2_updates"))
    #expect(provider.decode(.text(#"{"type":"heartbeat","timestamp":1791469270310}"#)) == .keepalive)
    #expect(
      provider.decode(
        .text(#"{"type":"heartbeat","timestampms":1659740268958,"sequence":7,"socket_sequence":7}"#))
        == .keepalive)
    #expect(
      provider.decode(
        .text(
          #"{"type":"candles_1m_updates","symbol":"BTCUSD","changes":[[1561054500000,9350.18,9358.35,9350.18,9355.51,2.07]]}"#
        )) == .ignored("candles_1m_updates"))
    #expect(provider.decode(.text(#"{"result":"ok"}"#)) == .ignored("result"))
  }

  @Test(
    "errors: named by their reason, never fatal",
    arguments: [
      (
        #"{"reason":"NoValidTradingPairs","result":"error"}"#,
        VenueError(name: "NoValidTradingPairs", message: "no valid trading pairs", fatal: false)
      ),
      (
        #"{"result":"error","reason":"InvalidSymbol","message":"Supplied value 'x' is not a valid symbol"}"#,
        VenueError(name: "InvalidSymbol", message: "Supplied value 'x' is not a valid symbol", fatal: false)
      ),
      (
        #"{"result":"error","reason":"InvalidJson"}"#,
        VenueError(name: "InvalidJson", message: "invalid json", fatal: false)
      ),
      (#"{"result":"error"}"#, VenueError(message: "unspecified error", fatal: false)),
      (
        #"{"result":"error","reason":"","message":7}"#, VenueError(message: "unspecified error", fatal: false)
      ),
    ])
  func errors(text: String, expected: VenueError) {
    #expect(provider.decode(.text(text)) == .error(expected))
  }

  @Test("a refusal names the symbol whose subscription waits for its book, when one alone does")
  func refusalInContext() {
    let refusal = WebSocketMessage.text(#"{"reason":"NoValidTradingPairs","result":"error"}"#)
    let book = WebSocketMessage.text(#"{"type":"l2_updates","symbol":"BTCUSD","changes":[],"trades":[]}"#)
    var context = DecodingContext()
    // The runtime notes every subscription of a new connection (server spellings).
    context.historyDue = ["BTCUSD", "NOPEUSD"]
    #expect(provider.decode(book, context: &context) == .history([]))
    #expect(context.historyDue == ["NOPEUSD"])
    #expect(
      provider.decode(refusal, context: &context)
        == .error(
          VenueError(
            name: "NoValidTradingPairs", message: "no valid trading pairs", fatal: false, symbol: "NOPEUSD")))
    #expect(context.historyDue.isEmpty)
    // Nothing waiting, or several: no name (a wrong one would take back a symbol that trades).
    #expect(provider.decode(refusal, context: &context) == provider.decode(refusal))
    context.historyDue = ["AUSD", "BUSD"]
    #expect(provider.decode(refusal, context: &context) == provider.decode(refusal))
    #expect(context.historyDue == ["AUSD", "BUSD"])
    // A book update answers too (a first book without trades); other errors name nobody.
    #expect(
      provider.decode(.text(#"{"type":"l2_updates","symbol":"AUSD","changes":[]}"#), context: &context)
        == .ignored("l2_updates"))
    #expect(context.historyDue == ["BUSD"])
    let other = WebSocketMessage.text(#"{"reason":"InvalidJson","result":"error"}"#)
    #expect(provider.decode(other, context: &context) == provider.decode(other))
    #expect(context.historyDue == ["BUSD"])
    // Trades leave the context to the runtime.
    #expect(
      provider.decode(.text(trade(#""timestamp":1,"price":"1""#, symbol: "BUSD")), context: &context)
        == .quotes([quote("BUSD", "1", 1)]))
    #expect(context.historyDue == ["BUSD"])
  }

  @Test(arguments: [
    (#"{"type":"trade","symbol":"A","timestamp":1}"#, #""price" must be a decimal string"#),
    (#"{"type":"trade","symbol":"A","timestamp":1,"price":"1."}"#, #""price" is not a decimal number"#),
    (
      #"{"type":"trade","symbol":"A","timestamp":1,"price":"1","quantity":true}"#,
      #""quantity" must be a decimal string"#
    ),
    (
      #"{"type":"trade","symbol":"A","timestamp":1,"price":"1","quantity":"x"}"#,
      #""quantity" is not a decimal number"#
    ),
    (#"{"type":"trade","symbol":"A","price":"1"}"#, #"trade has no "timestamp" (epoch milliseconds)"#),
    (
      #"{"type":"trade","symbol":"A","price":"1","timestamp":1.5}"#,
      #""timestamp" must be epoch milliseconds"#
    ),
    (
      #"{"type":"trade","symbol":"A","price":"1","timestamp":-1}"#, #""timestamp" must be epoch milliseconds"#
    ),
    (#"{"type":"trade","price":"1","timestamp":1}"#, #"trade has no "symbol""#),
    (#"{"type":"trade","symbol":"","price":"1","timestamp":1}"#, #""symbol" must be a non-empty string"#),
    (#"{"type":"l2_updates","changes":[]}"#, #"l2_updates: "symbol" must be a non-empty string"#),
    (
      #"{"type":"l2_updates","symbol":"A","trades":{}}"#,
      #"l2_updates: "trades" must be an array, not an object"#
    ),
    (#"{"type":1}"#, #""type" must be a string, not a number"#),
    (#"{"x":1}"#, #"not a Gemini message: no "type" and no "result""#),
    ("[]", "message must be a JSON object, not an array"),
    ("ping", "invalid JSON: unexpected character 'p' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test("the fast path knows book updates only, and answers as the model does")
  func fastPath() throws {
    let texts = try Self.serverTexts()
    let fast = texts.compactMap { provider.fastDecode(.text($0)) }
    #expect(fast.count == 6)
    for text in texts {
      for message in [WebSocketMessage.text(text), .binary(Array(text.utf8))] {
        if let answer = provider.fastDecode(message) {
          #expect(answer == provider.decodeThroughModel(message))
        }
        #expect(provider.decode(message) == provider.decodeThroughModel(message))
      }
    }
    for text in [
      #" { "changes" : [ [ "sell" , "9160.20" , "0.1" ] , [ ] ] , "symbol" : "BTCUSD" , "type" : "l2_updates" } "#,
      #"{"type":"l2_updates","symbol":"BTCUSD","changes":[]}"#,
    ] {
      #expect(provider.fastDecode(.text(text)) == .ignored("l2_updates"))
      #expect(provider.decodeThroughModel(.text(text)) == .ignored("l2_updates"))
    }
    // Declined: left to the model path.
    for text in [
      #"{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy",9160.2,"0"]]}"#,
      #"{"type":"l2_updates","symbol":"BTCUSD","changes":[],"trades":[]}"#,
      #"{"type":"l2_updates","type":"l2_updates","symbol":"BTCUSD","changes":[]}"#,
      #"{"type":"l2_updates","symbol":"","changes":[]}"#,
      #"{"type":"l2_updates","symbol":"BTC\u0055SD","changes":[]}"#,
      #"{"type":"l2_updates","symbol":"BTCUSD","changes":[]} x"#,
      #"{"type":"trade","symbol":"BTCUSD","changes":[]}"#,
      #"{"symbol":"BTCUSD","changes":[]}"#,
    ] {
      #expect(provider.fastDecode(.text(text)) == nil, "\(text)")
    }
  }

  @Test func garbageNeverTrapsAndBothPathsAgree() throws {
    var generator = SplitMix64(seed: 29)
    let seeds = try Self.serverTexts().map { Array($0.utf8) }
    for n in 0..<3000 {
      var bytes = seeds[n % seeds.count]
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      let model = provider.decodeThroughModel(.binary(bytes))
      if let fast = provider.fastDecode(.binary(bytes)) { #expect(fast == model) }
      #expect(provider.decode(.binary(bytes)) == model)
      var context = DecodingContext()
      context.historyDue = ["BTCUSD"]
      _ = provider.decode(.binary(bytes), context: &context)
    }
    #expect(provider.decode(.binary(seeds[1])).quotes.count == 1)
  }

  @Test("the venue's heartbeats need nothing from the client; history and context asked for")
  func settings() {
    #expect(provider.name == "gemini" && provider.displayName == "Gemini")
    #expect(provider.defaultURL.description == "wss://api.gemini.com/v2/marketdata")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental && provider.acknowledgement == .perSymbol)
    #expect(provider.keepalive == nil && provider.firstQuoteDeadline == nil)
    #expect(provider.limits == VenueLimits())
    #expect(provider.usesDecodingContext && provider.backFillsOnSubscribe && provider.sendsHistory)
    #expect(provider.handshakeAdvice(status: 429)?.contains("120 requests a minute") == true)
    #expect(provider.handshakeAdvice(status: 451) == nil)
    #expect(provider.exampleSymbol == "BTCUSD")
    #expect(ProviderCatalog.provider(named: "gemini")?.name == "gemini")
  }
}

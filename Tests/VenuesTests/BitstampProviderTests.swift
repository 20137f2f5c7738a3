import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Bitstamp's provider: markets in lower case inside the channel name, one request per channel
/// answered in order, every message shape of the recorded session and of Bitstamp's documentation
/// and captures, prices and sizes from their exact strings.
@Suite(.ownThread) struct BitstampProviderTests {
  let provider = BitstampProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  /// A trade of `market` with these members in `data`.
  func trade(_ members: String, market: String = "btcusd") -> String {
    #"{"data":{\#(members)},"channel":"live_trades_\#(market)","event":"trade"}"#
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("bitstamp-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .acknowledged(id: nil),
      .quotes([quote("btcusd", "79412", 1_791_455_017_676, volume: "0.00164300")]),
      .quotes([quote("btcusd", "79411", 1_791_455_018_880, volume: "0.05000000")]),
      .quotes([quote("btcusd", "79410", 1_791_455_018_880, volume: "0.01220911")]),
      .quotes([quote("btcusd", "79415", 1_791_455_021_741, volume: "0.00030000")]),
      .acknowledged(id: nil),
      .quotes([quote("btcusd", "79416", 1_791_455_024_290, volume: "0.12000000")]),
    ]
    #expect(events == expected)
    // The exact strings, never the floats beside them (`0.0016429999999999999`).
    #expect(events.flatMap(\.quotes).map(\.price.text) == ["79412", "79411", "79410", "79415", "79416"])
    #expect(
      events.flatMap(\.quotes).map { $0.volume?.text }
        == ["0.00164300", "0.05000000", "0.01220911", "0.00030000", "0.12000000"])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("bitstamp-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["btcusd"], ids: &ids) == [.text(sent[0])])
    #expect(
      provider.subscriptionMessages(from: ["btcusd"], to: ["btcusd", "nopeusd"], ids: &ids) == [
        .text(sent[1])
      ])
    // No ids: Bitstamp answers in order, naming the channel.
    #expect(ids.last == 0)
  }

  @Test("one request per market, removals first, nothing when the sets agree")
  func subscriptionChanges() {
    func request(_ event: String, _ market: String) -> WebSocketMessage {
      .text(#"{"event":"bts:\#(event)","data":{"channel":"live_trades_\#(market)"}}"#)
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["btcusd", "etheur"], ids: &ids)
        == [request("subscribe", "btcusd"), request("subscribe", "etheur")])
    #expect(
      provider.subscriptionMessages(from: ["btcusd", "etheur"], to: ["etheur", "xrpusdt"], ids: &ids)
        == [request("unsubscribe", "btcusd"), request("subscribe", "xrpusdt")])
    #expect(provider.subscriptionMessages(from: ["a1", "b2"], to: ["b2", "a1"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["a1", "b2"], to: [], ids: &ids)
        == [request("unsubscribe", "a1"), request("unsubscribe", "b2")])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
  }

  @Test("every request stays far under Bitstamp's 512 bytes, the longest market included")
  func requestsAreSmall() throws {
    let longest = String(repeating: "z", count: BitstampProvider.longestMarket)
    var ids = RequestIDs(prefix: "unused")
    for message in provider.subscriptionMessages(from: ["a"], to: [longest], ids: &ids) {
      #expect(message.text.utf8.count < 128, "\(message.text)")
    }
  }

  @Test(arguments: [
    ("btcusd", "btcusd"), ("BTCUSD", "btcusd"), ("EthEur", "etheur"), ("1inchusd", "1inchusd"),
    ("usdcusd", "usdcusd"), (String(repeating: "a", count: 32), String(repeating: "a", count: 32)),
  ])
  func marketsAreCanonicalisedToLowerCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: [
    "", "btc/usd", "BTC-USD", "btcusd-perp", "btc_usd", " btcusd", "btcusd\n", "éthusd",
    String(repeating: "a", count: 33), #"btcusd"}}"#,
  ])
  func thingsThatCannotBeMarketsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as btcusd"))
  }

  @Test(arguments: [
    ("btcusd", "BTC", "USD"), ("btcusdt", "BTC", "USDT"), ("btcusdc", "BTC", "USDC"),
    ("btceur", "BTC", "EUR"),
    ("ethbtc", "ETH", "BTC"), ("usdcusd", "USDC", "USD"), ("usdtusd", "USDT", "USD"),
    ("gbpusd", "GBP", "USD"),
    ("xlmeur", "XLM", "EUR"), ("1inchusd", "1INCH", "USD"), ("BTCGBP", "BTC", "GBP"),
  ])
  func marketsSplitAtAKnownQuoteCurrency(symbol: String, base: String, quote: String) {
    #expect(provider.market(of: symbol) == Market(base: base, quote: quote))
  }

  @Test func marketsWithoutAKnownQuoteSayNone() {
    for symbol in ["usd", "usdt", "btcxyz", "", "btcjpy"] {
      #expect(provider.market(of: symbol) == nil, "\(symbol)")
    }
    #expect(provider.mainMarket(for: "BTC") == "btcusd")
    #expect(provider.mainMarket(for: "eth") == "ethusd")
    #expect(provider.conversionPair(for: "USD") == nil)
  }

  @Test("trades: price_str, amount_str and microtimestamp read; the texts kept; the floats ignored")
  func trades() {
    // 2019's members in another order, with a float artefact on both numbers.
    #expect(
      provider.decode(
        .text(
          #"{"data": {"microtimestamp": "1557000000123456", "amount": 0.0016429999999999999, "buy_order_id": 3251837478, "sell_order_id": 3251837511, "amount_str": "0.00164300", "price_str": "3651.30", "timestamp": "1557000000", "price": 3651.3000000000002, "type": 1, "id": 86998221}, "event": "trade", "channel": "live_trades_btcusd"}"#
        )) == .quotes([quote("btcusd", "3651.30", 1_557_000_000_123, volume: "0.00164300")]))
    let exact = provider.decode(
      .text(
        trade(
          #""price":3651.3000000000002,"price_str":"3651.30","amount":1e-8,"amount_str":"0.00000001","microtimestamp":"1""#
        )))
    #expect(exact.quotes.map(\.price.text) == ["3651.30"])
    #expect(exact.quotes.map { $0.volume?.text } == ["0.00000001"])
    // Without microtimestamp: timestamp in seconds, or (a perpetual's, 2026) in milliseconds.
    #expect(
      provider.decode(.text(trade(#""price_str":"1","timestamp":"1791455017""#)))
        == .quotes([quote("btcusd", "1", 1_791_455_017_000)]))
    #expect(
      provider.decode(.text(trade(#""price_str":"1","timestamp":"1789456400586""#)))
        == .quotes([quote("btcusd", "1", 1_789_456_400_586)]))
    #expect(
      provider.decode(.text(trade(#""price_str":"1","microtimestamp":1791455017676001,"timestamp":1"#)))
        == .quotes([quote("btcusd", "1", 1_791_455_017_676)]))
    // Only the floats: read as written rather than dropped; no size at all: no volume.
    #expect(
      provider.decode(.text(trade(#""price":3651.3000000000002,"amount":0.5,"timestamp":"1""#))).quotes.map {
        ($0.price.text, $0.volume?.text)
      }.first.map { $0 == ("3651.3000000000002", "0.5") } == true)
    #expect(
      provider.decode(.text(trade(#""price_str":"2","amount_str":null,"timestamp":"3""#)))
        == .quotes([quote("btcusd", "2", 3000)]))
    // The market comes from the channel, a perpetual's too.
    #expect(
      provider.decode(.text(trade(#""price_str":"77204","microtimestamp":"1000""#, market: "btcusd-perp")))
        == .quotes([quote("btcusd-perp", "77204", 1)]))
  }

  @Test func answersAndEvents() {
    #expect(
      provider.decode(
        .text(#"{"event":"bts:subscription_succeeded","channel":"live_trades_btcusd","data":{}}"#))
        == .acknowledged(id: nil))
    #expect(
      provider.decode(
        .text(#"{"event":"bts:unsubscription_succeeded","channel":"live_trades_btcusd","data":{}}"#))
        == .acknowledged(id: nil))
    #expect(
      provider.decode(.text(#"{"event":"bts:heartbeat","channel":"","data":{"status":"success"}}"#))
        == .keepalive)
    for data in ["null", #""""#] {
      #expect(
        provider.decode(.text(#"{"event":"bts:request_reconnect","channel":"","data":\#(data)}"#))
          == .closingSoon("bts:request_reconnect"))
    }
    #expect(
      provider.decode(
        .text(
          #"{"data":{"timestamp":"1789457617","microtimestamp":"1789457617906487","bids":[],"asks":[]},"channel":"order_book_btcusd","event":"data"}"#
        )) == .ignored("order book of btcusd with an empty side"))
    #expect(
      provider.decode(
        .text(
          #"{"data":{"timestamp":"1789457617","microtimestamp":"1789457617906487","bids":[],"asks":[]},"channel":"diff_order_book_btcusd","event":"data"}"#
        )) == .ignored("data"))
    #expect(
      provider.decode(.text(#"{"data":{"id":1},"channel":"live_orders_btcusd","event":"order_created"}"#))
        == .ignored("order_created"))
    #expect(
      provider.decode(
        .text(#"{"data":{"price_str":"1"},"channel":"private-my_trades_btcusd-7","event":"trade"}"#))
        == .ignored("trade on channel private-my_trades_btcusd-7"))
  }

  @Test(
    "errors: never fatal (the socket stays open); a code is its name; a channel, when one is named, its market",
    arguments: [
      (
        #"{"event":"bts:error","channel":"","data":{"code":null,"message":"Bad subscription string."}}"#,
        VenueError(message: "Bad subscription string.", fatal: false)
      ),
      (
        #"{"event":"bts:error","channel":"","data":{"code":null,"message":"Incorrect JSON format."}}"#,
        VenueError(message: "Incorrect JSON format.", fatal: false)
      ),
      (
        #"{"event":"bts:error","channel":"","data":{"code":4009,"message":"Invalid channel provided."}}"#,
        VenueError(name: "4009", message: "Invalid channel provided.", fatal: false)
      ),
      (
        #"{"event":"bts:error","channel":"live_trades_nopeusd","data":{"code":null,"message":"x"}}"#,
        VenueError(message: "x", fatal: false, symbol: "nopeusd")
      ),
      (#"{"event":"bts:error","channel":"","data":"Oops"}"#, VenueError(message: "Oops", fatal: false)),
      (#"{"event":"bts:error"}"#, VenueError(message: "unspecified error", fatal: false)),
      (
        #"{"event":"bts:error","channel":"live_trades_","data":{"message":""}}"#,
        VenueError(message: "unspecified error", fatal: false)
      ),
    ])
  func errors(text: String, expected: VenueError) {
    #expect(provider.decode(.text(text)) == .error(expected))
  }

  @Test(arguments: [
    (#"{"data":{"price_str":"1","timestamp":"1"},"event":"trade"}"#, #"a trade has no string "channel""#),
    (#"{"data":[],"channel":"live_trades_btcusd","event":"trade"}"#, #"a trade's "data" must be an object"#),
    (#"{"channel":"live_trades_btcusd","event":"trade"}"#, #"a trade's "data" must be an object"#),
    (
      #"{"data":{"timestamp":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #"trade has no "price_str" (or "price")"#
    ),
    (
      #"{"data":{"price_str":79412,"timestamp":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""price_str" must be a decimal string"#
    ),
    (
      #"{"data":{"price_str":"","timestamp":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""price_str" is not a decimal number"#
    ),
    (
      #"{"data":{"price":"x","timestamp":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""price" is not a decimal number"#
    ),
    (
      #"{"data":{"price":true,"timestamp":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""price" must be a number"#
    ),
    (
      #"{"data":{"price_str":"1","amount_str":"1e","timestamp":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""amount_str" is not a decimal number"#
    ),
    (
      #"{"data":{"price_str":"1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #"trade has no "microtimestamp" or "timestamp""#
    ),
    (
      #"{"data":{"price_str":"1","microtimestamp":"-1"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""microtimestamp" must be a whole number of microseconds"#
    ),
    (
      #"{"data":{"price_str":"1","timestamp":"1.5"},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""timestamp" must be a whole number of seconds"#
    ),
    (
      #"{"data":{"price_str":"1","timestamp":[]},"channel":"live_trades_btcusd","event":"trade"}"#,
      #""timestamp" must be a string of digits"#
    ),
    (#"{"channel":"","data":{}}"#, #"message has no "event""#),
    (#"{"event":7}"#, #""event" must be a string, not a number"#),
    (#"[]"#, "message must be a JSON object, not an array"),
    ("bts", "invalid JSON: unexpected character 'b' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 17)
    let seed = Array(
      trade(
        #""id":1,"timestamp":"1791455017","amount":0.05,"amount_str":"0.05000000","price":79411,"price_str":"79411","type":1,"microtimestamp":"1791455018880000""#
      ).utf8)
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

  @Test("no duty to keep the connection: Bitstamp pings, the engine answers")
  func keepalive() {
    #expect(provider.keepalive == nil)
    #expect(provider.scaled(by: 0.01).keepalive == nil)
    #expect(provider.firstQuoteDeadline == nil)
  }

  @Test func settings() {
    #expect(provider.name == "bitstamp" && provider.displayName == "Bitstamp")
    #expect(provider.defaultURL.description == "wss://ws.bitstamp.net/")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental && provider.acknowledgement == .inOrder)
    #expect(provider.limits == VenueLimits(symbolsPerConnection: 1024))
    #expect(provider.exampleSymbol == "btcusd")
    #expect(provider.handshakeAdvice(status: 429) == nil)
    #expect(ProviderCatalog.provider(named: "bitstamp")?.name == "bitstamp")
    #expect(ProviderCatalog.all.filter { $0.name == "bitstamp" }.count == 1, "listed once")
  }
}

// MARK: Top of book (`order_book_<market>`)

extension BitstampProviderTests {
  /// A book message of `market` with these members in `data`.
  func book(_ members: String, market: String = "btcusd") -> String {
    #"{"data":{\#(members)},"channel":"order_book_\#(market)","event":"data"}"#
  }

  @Test("the order book: its first bid and ask are the top, the texts kept, the time from microtimestamp")
  func orderBook() throws {
    let top = provider.topOfBook!
    // Captured in 2026 (the fuzz seed), and a deeper one in the documented shape.
    let captured =
      #"{"data":{"timestamp":"1789457617","microtimestamp":"1789457617906487","bids":[["77188","0.41122"]],"asks":[["77189","0.41124"]]},"channel":"order_book_btcusd","event":"data"}"#
    let expected = Quote(
      symbol: "btcusd", bid: Price("77188")!, bidSize: Price("0.41122")!, ask: Price("77189")!,
      askSize: Price("0.41124")!, time: 1_789_457_617_906)
    // Whatever the provider follows: the message's shape says what it is.
    #expect(top.decode(.text(captured)) == .quotes([expected]))
    #expect(provider.decode(.text(captured)) == .quotes([expected]))
    let deep = book(
      #""timestamp":"1733450000","microtimestamp":"1733450000123456","bids":[["97250","0.12345678"],["97249.5","2.00000000"],["97000","10"]],"asks":[["97251","0.50000000"],["97252.10","1"]]"#
    )
    let quote = try #require(top.decode(.text(deep)).quotes.first)
    #expect(quote.bid.text == "97250" && quote.bidSize?.text == "0.12345678")
    #expect(quote.ask?.price.text == "97251" && quote.ask?.size?.text == "0.50000000")
    #expect(quote.time == 1_733_450_000_123 && quote.symbol == "btcusd" && quote.isTopOfBook)
    // Without microtimestamp, timestamp (seconds).
    let seconds = book(
      #""timestamp":"1733450000","bids":[["1.5","2"]],"asks":[["1.6","3"]]"#, market: "xrpeur")
    #expect(
      top.decode(.text(seconds))
        == .quotes([
          Quote(
            symbol: "xrpeur", bid: Price("1.5")!, bidSize: Price("2")!, ask: Price("1.6")!,
            askSize: Price("3")!,
            time: 1_733_450_000_000)
        ]))
  }

  @Test("the top of book subscribes to order_book_ channels, one request each, removals first")
  func bookSubscriptions() {
    let top = provider.topOfBook!
    #expect(top.stream == .topOfBook && provider.stream == .trades)
    #expect(top.name == "bitstamp" && top.topOfBook != nil)
    var ids = RequestIDs(prefix: "unused")
    #expect(
      top.subscriptionMessages(from: [], to: ["btcusd", "etheur"], ids: &ids) == [
        .text(#"{"event":"bts:subscribe","data":{"channel":"order_book_btcusd"}}"#),
        .text(#"{"event":"bts:subscribe","data":{"channel":"order_book_etheur"}}"#),
      ])
    #expect(
      top.subscriptionMessages(from: ["btcusd", "etheur"], to: ["etheur", "xrpusd"], ids: &ids) == [
        .text(#"{"event":"bts:unsubscribe","data":{"channel":"order_book_btcusd"}}"#),
        .text(#"{"event":"bts:subscribe","data":{"channel":"order_book_xrpusd"}}"#),
      ])
    #expect(top.subscriptionMessages(from: ["btcusd"], to: ["btcusd"], ids: &ids).isEmpty)
    #expect(ids.last == 0)
    // Acknowledged as trades' subscriptions are, in order; an error naming the channel names its market.
    #expect(
      top.decode(.text(#"{"event":"bts:subscription_succeeded","channel":"order_book_btcusd","data":{}}"#))
        == .acknowledged(id: nil))
    #expect(
      top.decode(.text(#"{"event":"bts:unsubscription_succeeded","channel":"order_book_btcusd","data":{}}"#))
        == .acknowledged(id: nil))
    #expect(
      top.decode(
        .text(#"{"event":"bts:error","channel":"order_book_nopeusd","data":{"code":null,"message":"x"}}"#))
        == .error(VenueError(message: "x", fatal: false, symbol: "nopeusd")))
  }

  @Test(
    "hostile order books: malformed, never a trap",
    arguments: [
      (#""microtimestamp":"1","asks":[["1","1"]]"#, #""bids" must be an array"#),
      (#""microtimestamp":"1","bids":{},"asks":[["1","1"]]"#, #""bids" must be an array"#),
      (#""microtimestamp":"1","bids":[["1","1"]],"asks":null"#, #""asks" must be an array"#),
      (
        #""microtimestamp":"1","bids":["1"],"asks":[["2","1"]]"#,
        #""bids[0]" must be [price, amount] as decimal strings"#
      ),
      (
        #""microtimestamp":"1","bids":[["1"]],"asks":[["2","1"]]"#,
        #""bids[0]" must be [price, amount] as decimal strings"#
      ),
      (
        #""microtimestamp":"1","bids":[[1,1]],"asks":[["2","1"]]"#,
        #""bids[0]" must be [price, amount] as decimal strings"#
      ),
      (
        #""microtimestamp":"1","bids":[["1","1"]],"asks":[["x","1"]]"#,
        #""asks[0]" is not a pair of decimal numbers"#
      ),
      (
        #""microtimestamp":"1","bids":[["1",""]],"asks":[["2","1"]]"#,
        #""bids[0]" is not a pair of decimal numbers"#
      ),
      (#""bids":[["1","1"]],"asks":[["2","1"]]"#, #"an order book has no "microtimestamp" or "timestamp""#),
      (
        #""microtimestamp":"x","bids":[["1","1"]],"asks":[["2","1"]]"#,
        #""microtimestamp" must be a whole number of microseconds"#
      ),
    ])
  func hostileBooks(members: String, reason: String) {
    #expect(provider.topOfBook!.decode(.text(book(members))) == .malformed(reason))
  }

  @Test("odd book messages: ignored or malformed, a huge book read to its top alone")
  func oddBooks() throws {
    #expect(
      provider.decode(.text(#"{"data":[],"channel":"order_book_btcusd","event":"data"}"#))
        == .malformed(#"an order book's "data" must be an object"#))
    #expect(provider.decode(.text(#"{"data":{},"event":"data"}"#)) == .ignored("data"))
    #expect(
      provider.decode(.text(#"{"data":{},"channel":"order_book_","event":"data"}"#)) == .ignored("data"))
    #expect(
      provider.decode(.text(book(#""microtimestamp":"1","bids":[["1","1"]],"asks":[]"#)))
        == .ignored("order book of btcusd with an empty side"))
    // 100,000 levels a side (a tenth of them broken, past the top): one quote, the top's.
    let levels = (0..<100_000).map { $0 % 10 == 9 ? "[]" : #"["\#(100_000 - $0)","1"]"# }
    let asks = (0..<100_000).map { #"["\#(200_000 + $0)","2"]"# }
    let huge = book(
      #""microtimestamp":"1733450000123456","bids":[\#(levels.joined(separator: ","))],"asks":[\#(asks.joined(separator: ","))]"#
    )
    let quotes = provider.topOfBook!.decode(.text(huge)).quotes
    #expect(quotes.count == 1)
    #expect(quotes.first?.bid.text == "100000" && quotes.first?.ask?.price.text == "200000")
  }

  @Test func garbageBooksNeverTrap() {
    var generator = SplitMix64(seed: 23)
    let seed = Array(
      book(
        #""timestamp":"1789457617","microtimestamp":"1789457617906487","bids":[["77188","0.41122"]],"asks":[["77189","0.41124"]]"#
      )
      .utf8)
    let top = provider.topOfBook!
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = top.decode(.binary(bytes))
    }
    #expect(top.decode(.binary(seed)).quotes.count == 1)
  }
}

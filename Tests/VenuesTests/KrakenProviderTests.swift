import Testing

@testable import TestSupport
@testable import Venues

/// Kraken's v2 provider: its symbols, its requests, and every message shape the venue sends.
@Suite(.ownThread) struct KrakenProviderTests {
  let provider = KrakenProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, time: time)
  }

  /// A ticker message with one entry of `members`.
  func ticker(_ members: String, type: String = "update") -> String {
    #"{"channel":"ticker","type":"\#(type)","data":[{"symbol":"BTC/USD",\#(members)}]}"#
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("kraken-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .ignored("status"),
      .acknowledged(id: 1),
      // 2026-09-21T14:02:11.462409Z, truncated to the millisecond.
      .quotes([quote("BTC/USD", "80912.4", 1_789_999_331_462)]),
      .keepalive,
      .quotes([quote("BTC/USD", "80915.0", 1_789_999_332_717)]),
      .error(
        VenueError(
          message: "Currency pair not supported XBT/USD", requestID: 2, fatal: false, symbol: "XBT/USD")),
      .quotes([quote("BTC/USD", "80909.8", 1_789_999_333_384)]),
      .keepalive,
    ]
    #expect(events == expected)
    // Prices exactly as written: `80915.0` keeps its `.0`.
    #expect(events.flatMap(\.quotes).map(\.price.text) == ["80912.4", "80915.0", "80909.8"])
    #expect(events.flatMap(\.quotes).allSatisfy { $0.volume == nil })
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("kraken-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["BTC/USD"], ids: &ids) == [.text(sent[0])])
    #expect(
      provider.subscriptionMessages(from: ["BTC/USD"], to: ["BTC/USD", "XBT/USD"], ids: &ids) == [
        .text(sent[1])
      ])
    #expect(provider.keepalive?.message == .text(sent[2]))
    #expect(ids.last == 2)
  }

  @Test func subscriptionChanges() {
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTC/USD", "ETH/USD"], ids: &ids)
        == [
          .text(
            #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD"]},"req_id":1}"#
          )
        ])
    #expect(
      provider.subscriptionMessages(from: ["BTC/USD", "ETH/USD"], to: ["ETH/USD"], ids: &ids)
        == [.text(#"{"method":"unsubscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":2}"#)]
    )
    #expect(
      provider.subscriptionMessages(from: ["ETH/USD"], to: ["SOL/EUR", "BTC/USD"], ids: &ids)
        == [
          .text(#"{"method":"unsubscribe","params":{"channel":"ticker","symbol":["ETH/USD"]},"req_id":3}"#),
          .text(
            #"{"method":"subscribe","params":{"channel":"ticker","symbol":["SOL/EUR","BTC/USD"]},"req_id":4}"#
          ),
        ])
    #expect(provider.subscriptionMessages(from: ["A/B", "C/D"], to: ["C/D", "A/B"], ids: &ids) == [])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    #expect(ids.last == 4)
  }

  @Test(arguments: [
    ("BTC/USD", "BTC/USD"), ("btc/usd", "BTC/USD"), ("Eth/Eur", "ETH/EUR"), ("1INCH/USD", "1INCH/USD"),
    ("usdt/usd", "USDT/USD"),
  ])
  func pairsAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: [
    "", "BTCUSD", "BTC/", "/USD", "BTC/USD/EUR", "BTC-USD", "BTC//USD", " BTC/USD", "BTC/ USD", "ÉTH/USD",
    "BTC\\USD", "BTC/USD\n",
  ])
  func thingsThatCannotBePairsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as BTC/USD"))
  }

  @Test func marketsSplitAtTheSlash() {
    #expect(provider.market(of: "BTC/USD") == Market(base: "BTC", quote: "USD"))
    #expect(provider.market(of: "ETH/BTC") == Market(base: "ETH", quote: "BTC"))
    #expect(provider.market(of: "BTC/") == nil && provider.market(of: "BTCUSD") == nil)
    #expect(provider.mainMarket(for: "btc") == "BTC/USD")
    #expect(
      provider.mainMarket(for: "SOL").flatMap { provider.market(of: $0) } == Market(base: "SOL", quote: "USD")
    )
  }

  @Test func tickerPricesAndTimes() {
    // Microseconds and nanoseconds are truncated to the millisecond, never rounded up.
    #expect(
      provider.decode(.text(ticker(#""last":80912.4,"timestamp":"2026-09-21T14:02:11.462999Z""#)))
        == .quotes([quote("BTC/USD", "80912.4", 1_789_999_331_462)]))
    #expect(
      provider.decode(.text(ticker(#""last":0.10035,"timestamp":"2026-09-21T14:02:11.999999999Z""#)))
        == .quotes([quote("BTC/USD", "0.10035", 1_789_999_331_999)]))
    // An exponent form is written out plainly; every digit of a long price is kept.
    let exponent = provider.decode(.text(ticker(#""last":8.09124E4,"timestamp":"2026-09-21T14:02:11Z""#)))
    #expect(exponent.quotes.map(\.price.text) == ["80912.4"])
    let long = provider.decode(
      .text(ticker(#""last":0.000012345678901234,"timestamp":"2026-09-21T14:02:11Z""#)))
    #expect(long.quotes.map(\.price.text) == ["0.000012345678901234"])
    // Snapshots and updates alike; several entries give several quotes, in order.
    let two =
      #"{"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/USD","last":1.0,"timestamp":"2026-09-21T14:02:11Z"},"#
      + #"{"symbol":"ETH/USD","last":2.50,"timestamp":"2026-09-21T14:02:12Z"}]}"#
    #expect(
      provider.decode(.text(two))
        == .quotes([quote("BTC/USD", "1.0", 1_789_999_331_000), quote("ETH/USD", "2.50", 1_789_999_332_000)]))
  }

  @Test func tickersThatCannotBeQuotesAreSkipped() {
    // A pair that has not traded for a day has no last price.
    #expect(
      provider.decode(.text(ticker(#""bid":1.0,"timestamp":"2026-09-21T14:02:11Z""#)))
        == .ignored(#"ticker without "last""#))
    #expect(
      provider.decode(.text(ticker(#""last":null,"timestamp":"2026-09-21T14:02:11Z""#)))
        == .ignored(#"ticker without "last""#))
    // 2024's updates carried no timestamp: a price all the same (time 0: the runtime stamps when it
    // arrived), never dropped.
    #expect(provider.decode(.text(ticker(#""last":1.5"#))) == .quotes([quote("BTC/USD", "1.5", 0)]))
    #expect(
      provider.decode(.text(#"{"channel":"ticker","type":"update","data":[]}"#))
        == .ignored("ticker without data"))
    // Good entries are kept beside bad ones, which are described.
    let mixed =
      #"{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":"1","timestamp":"2026-09-21T14:02:11Z"},"#
      + #"{"symbol":"ETH/USD","last":2.5,"timestamp":"2026-09-21T14:02:12Z"},7]}"#
    #expect(
      provider.decode(.text(mixed))
        == .partial(
          [quote("ETH/USD", "2.5", 1_789_999_332_000)],
          dropped: [#"data[0]: "last" must be a number"#, "data[2]: must be an object, not a number"]))
  }

  @Test func answersHeartbeatsAndOtherChannels() {
    #expect(provider.decode(.text(#"{"channel":"heartbeat"}"#)) == .keepalive)
    #expect(
      provider.decode(
        .text(
          #"{"method":"pong","req_id":101,"time_in":"2023-09-24T14:10:23.799685Z","time_out":"2023-09-24T14:10:23.799703Z"}"#
        ))
        == .keepalive)
    #expect(
      provider.decode(
        .text(
          #"{"method":"unsubscribe","req_id":7,"result":{"channel":"ticker","symbol":"BTC/USD"},"success":true,"time_in":"2026-09-21T14:02:11.462301Z","time_out":"2026-09-21T14:02:11.462318Z"}"#
        )) == .acknowledged(id: 7))
    // An answer to a request without req_id.
    #expect(
      provider.decode(
        .text(#"{"method":"subscribe","result":{"channel":"ticker","symbol":"BTC/USD"},"success":true}"#))
        == .acknowledged(id: nil))
    #expect(
      provider.decode(
        .text(#"{"channel":"book","type":"snapshot","data":[{"symbol":"BTC/USD","bids":[],"asks":[]}]}"#))
        == .ignored("book"))
    #expect(
      provider.decode(
        .text(
          #"{"channel":"status","data":[{"api_version":"v2","connection_id":12393906104898154338,"system":"maintenance","version":"2.0.10"}],"type":"update"}"#
        ))
        == .ignored("status"))
  }

  @Test func refusals() {
    // A refused subscription names its pair, which alone is refused; never fatal.
    #expect(
      provider.decode(
        .text(
          #"{"error":"Already subscribed","method":"subscribe","req_id":2,"success":false,"symbol":"BTC/USD","time_in":"2025-12-20T07:39:28.809188Z","time_out":"2025-12-20T07:39:28.809200Z"}"#
        ))
        == .error(VenueError(message: "Already subscribed", requestID: 2, fatal: false, symbol: "BTC/USD")))
    // A refused unsubscribe takes nothing back: no symbol.
    #expect(
      provider.decode(
        .text(
          #"{"error":"Subscription Not Found","method":"unsubscribe","req_id":3,"success":false,"symbol":"ETH/USD"}"#
        ))
        == .error(VenueError(message: "Subscription Not Found", requestID: 3, fatal: false)))
    // A refusal naming no symbol (the rate limit), and an error outside any answer.
    #expect(
      provider.decode(
        .text(#"{"error":"Exceeded msg rate","method":"subscribe","req_id":4,"success":false}"#))
        == .error(VenueError(message: "Exceeded msg rate", requestID: 4, fatal: false)))
    #expect(
      provider.decode(.text(#"{"error":"Malformed request","success":false}"#))
        == .error(VenueError(message: "Malformed request", fatal: false)))
    #expect(
      provider.decode(.text(#"{"method":"subscribe","success":false}"#))
        == .error(VenueError(message: "unspecified error", fatal: false)))
  }

  @Test(arguments: [
    (#"{"channel":"ticker","type":"update"}"#, #"a ticker message needs a "data" array"#),
    (#"{"channel":"ticker","type":"update","data":{}}"#, #"a ticker message needs a "data" array"#),
    (
      #"{"channel":"ticker","data":[{"last":1,"timestamp":"2026-09-21T14:02:11Z"}]}"#,
      #"every ticker entry was invalid: data[0]: "symbol" must be a non-empty string"#
    ),
    (
      #"{"channel":"ticker","data":[{"symbol":"","last":1,"timestamp":"2026-09-21T14:02:11Z"}]}"#,
      #"every ticker entry was invalid: data[0]: "symbol" must be a non-empty string"#
    ),
    (
      #"{"channel":"ticker","data":[{"symbol":"A/B","last":true,"timestamp":"2026-09-21T14:02:11Z"}]}"#,
      #"every ticker entry was invalid: data[0]: "last" must be a number"#
    ),
    (
      #"{"channel":"ticker","data":[{"symbol":"A/B","last":1,"timestamp":1789999331}]}"#,
      #"every ticker entry was invalid: data[0]: "timestamp" must be an RFC 3339 string"#
    ),
    (
      #"{"channel":"ticker","data":[{"symbol":"A/B","last":1,"timestamp":"2026-02-30T00:00:00Z"}]}"#,
      #"every ticker entry was invalid: data[0]: "timestamp" is not an RFC 3339 date-time"#
    ),
    (#"{"channel":7}"#, #""channel" must be a string, not a number"#),
    (#"{"method":null,"success":true}"#, #""method" must be a string, not null"#),
    (#"{"method":"subscribe","success":"yes"}"#, #"an answer to "subscribe" has no boolean "success""#),
    (#"{"symbol":"BTC/USD"}"#, #"not a Kraken message: no "channel", "method" or "error""#),
    (#"["heartbeat"]"#, "message must be a JSON object, not an array"),
    ("{", "invalid JSON: unexpected end of input at byte 1"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func theAppendingEntryPointsAgreeWithDecode() throws {
    let bodies = try Fixture.session("kraken-session.ndjson").filter {
      $0.direction == "S>" && $0.kind == "text"
    }
    .map(\.body)
    for body in bodies {
      let event = provider.decode(.text(body))
      var quotes: [Quote] = []
      let returned = provider.decode(.text(body), appendingQuotesTo: &quotes)
      if case .quotes(let decoded) = event {
        #expect(returned == nil && quotes == decoded)
      } else {
        #expect(returned == event && quotes.isEmpty)
      }
    }
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 23)
    let seed = Array(ticker(#""bid":80912.3,"last":80912.4,"timestamp":"2026-09-21T14:02:11.462409Z""#).utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.count == 1)
    #expect(
      provider.decode(.binary([0xFF, 0x00, 0xC3]))
        == .malformed("invalid JSON: unexpected byte 0xFF at byte 0"))
  }

  @Test func settings() {
    #expect(provider.name == "kraken" && provider.displayName == "Kraken")
    #expect(provider.defaultURL.description == "wss://ws.kraken.com/v2")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.exampleSymbol == "BTC/USD")
    #expect(provider.subscriptionStyle == .incremental)
    #expect(provider.acknowledgement == .perSymbol)
    #expect(
      provider.keepalive == KeepaliveDuty(message: .text(#"{"method":"ping"}"#), interval: .seconds(25)))
    #expect(provider.firstQuoteDeadline == nil)
    #expect(provider.limits == VenueLimits(messagesPerSecond: 5))
    #expect(provider.handshakeAdvice(status: 429)?.contains("150 per 10 minutes") == true)
    #expect(provider.handshakeAdvice(status: 451) == nil)
    #expect(ProviderCatalog.provider(named: "kraken")?.name == "kraken")
    #expect(ProviderCatalog.names.contains("kraken"))
  }
}

/// The top of book (`--bid-ask`): the ticker channel triggered by the best bid and ask, read for them.
@Suite(.ownThread) struct KrakenBookTests {
  let provider = KrakenProvider(stream: .topOfBook)

  func book(_ bid: String, _ bidSize: String, _ ask: String, _ askSize: String, _ time: Int64) -> Quote {
    Quote(
      symbol: "BTC/USD", bid: Price(bid)!, bidSize: Price(bidSize)!, ask: Price(ask)!,
      askSize: Price(askSize)!,
      time: time)
  }

  func ticker(_ members: String, type: String = "update") -> String {
    #"{"channel":"ticker","type":"\#(type)","data":[{"symbol":"BTC/USD",\#(members)}]}"#
  }

  @Test("topOfBook: the same venue, its timings scaled alike")
  func variant() throws {
    let book = try #require(KrakenProvider().topOfBook)
    #expect(book.stream == .topOfBook && book.name == "kraken")
    #expect(book.scaled(by: 0.5).stream == .topOfBook)
    #expect(KrakenProvider().scaled(by: 0.5).stream == .trades)
  }

  @Test("the recorded snapshot and updates decode to their best bid and ask, digits exactly as sent")
  func recordedTickers() throws {
    let lines = try Fixture.session("kraken-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .ignored("status"),
      .acknowledged(id: 1),
      .quotes([book("80912.3", "0.52031211", "80912.4", "3.04471102", 1_789_999_331_462)]),
      .keepalive,
      .quotes([book("80915.0", "0.07418", "80915.1", "2.95", 1_789_999_332_717)]),
      .error(
        VenueError(
          message: "Currency pair not supported XBT/USD", requestID: 2, fatal: false, symbol: "XBT/USD")),
      .quotes([book("80909.8", "1.2", "80909.9", "0.00618", 1_789_999_333_384)]),
      .keepalive,
    ]
    #expect(events == expected)
    let quotes = events.flatMap(\.quotes)
    #expect(quotes.map(\.bid.text) == ["80912.3", "80915.0", "80909.8"])
    #expect(quotes.map { $0.ask?.price.text } == ["80912.4", "80915.1", "80909.9"])
    #expect(quotes.map { $0.ask?.size?.text } == ["3.04471102", "2.95", "0.00618"])
  }

  @Test(
    "the subscribe asks for tickers on each change of the best bid and ask; the unsubscribe as for trades")
  func subscriptions() {
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTC/USD", "ETH/USD"], ids: &ids) == [
        .text(
          #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD"],"event_trigger":"bbo"},"req_id":1}"#
        )
      ])
    #expect(
      provider.subscriptionMessages(from: ["BTC/USD", "ETH/USD"], to: ["ETH/USD", "SOL/EUR"], ids: &ids) == [
        .text(#"{"method":"unsubscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":2}"#),
        .text(
          #"{"method":"subscribe","params":{"channel":"ticker","symbol":["SOL/EUR"],"event_trigger":"bbo"},"req_id":3}"#
        ),
      ])
    // Trades keep their request byte for byte.
    #expect(
      KrakenProvider().subscriptionMessages(from: [], to: ["BTC/USD"], ids: &ids)
        == [.text(#"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":4}"#)])
  }

  @Test("an entry without a bid or an ask is skipped; one without a time is timed on arrival")
  func emptySides() {
    #expect(
      provider.decode(.text(ticker(#""ask":1.5,"ask_qty":2.0,"last":1.4"#)))
        == .ignored(#"ticker without "bid" or "ask""#))
    #expect(
      provider.decode(.text(ticker(#""bid":null,"bid_qty":0,"ask":1.5,"ask_qty":2.0"#)))
        == .ignored(#"ticker without "bid" or "ask""#))
    #expect(
      provider.decode(.text(ticker(#""bid":1.4,"bid_qty":3,"ask":1.5,"ask_qty":2.0"#)))
        == .quotes([
          Quote(
            symbol: "BTC/USD", bid: Price("1.4")!, bidSize: Price("3")!, ask: Price("1.5")!,
            askSize: Price("2.0")!, time: 0)
        ]))
  }

  @Test(
    "hostile entries are dropped and described, never a quote",
    arguments: [
      (#""bid":"1.4","bid_qty":1,"ask":1.5,"ask_qty":2"#, #""bid" must be a number"#),
      (#""bid":1.4,"bid_qty":1,"ask":true,"ask_qty":2"#, #""ask" must be a number"#),
      (#""bid":1.4,"ask":1.5,"ask_qty":2"#, #"a ticker with "bid" and "ask" needs "bid_qty" and "ask_qty""#),
      (#""bid":1.4,"bid_qty":1,"ask":1.5,"ask_qty":"2""#, #""ask_qty" must be a number"#),
      (
        #""bid":1.4,"bid_qty":1,"ask":1.5,"ask_qty":2,"timestamp":7"#,
        #""timestamp" must be an RFC 3339 string"#
      ),
      (
        #""bid":1.4,"bid_qty":1,"ask":1.5,"ask_qty":2,"timestamp":"noon""#,
        #""timestamp" is not an RFC 3339 date-time"#
      ),
    ])
  func hostile(members: String, problem: String) {
    #expect(
      provider.decode(.text(ticker(members)))
        == .malformed("every ticker entry was invalid: data[0]: " + problem))
  }

  @Test("a huge ticker message: every entry read, one quote each, nothing kept")
  func hugeMessage() {
    let entry = #"{"symbol":"BTC/USD","bid":1.4,"bid_qty":1,"ask":1.5,"ask_qty":2}"#
    let text =
      #"{"channel":"ticker","type":"update","data":["#
      + Array(repeating: entry, count: 20_000).joined(separator: ",") + "]}"
    #expect(provider.decode(.text(text)).quotes.count == 20_000)
    #expect(
      provider.decode(
        .text(
          #"{"channel":"ticker","type":"update","data":[1,{"symbol":"BTC/USD","bid":1.4,"bid_qty":1,"ask":1.5,"ask_qty":2}]}"#
        ))
        == .partial(
          [
            Quote(
              symbol: "BTC/USD", bid: Price("1.4")!, bidSize: Price("1")!, ask: Price("1.5")!,
              askSize: Price("2")!, time: 0)
          ], dropped: ["data[0]: must be an object, not a number"]))
  }

  @Test("random damage to a ticker never traps")
  func garbageNeverTraps() {
    var generator = SplitMix64(seed: 23)
    let seed = Array(
      ticker(
        #""bid":80912.3,"bid_qty":0.52031211,"ask":80912.4,"ask_qty":3.04471102,"last":80912.4,"timestamp":"2026-09-21T14:02:11.462409Z""#
      ).utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.first?.ask?.price.text == "80912.4")
  }
}

import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Bithumb's provider: market codes, whole-list requests (a change: the added codes' snapshots,
/// then every code in real time), every message shape of the recorded session and of Bithumb's
/// documentation, prices kept as sent, the UTC trade time rather than the Korean date and time.
@Suite(.ownThread) struct BithumbProviderTests {
  let provider = BithumbProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  /// A trade message with these members after `code` (DEFAULT keys).
  func trade(_ members: String, code: String = "KRW-BTC") -> String {
    #"{"type":"trade","code":"\#(code)",\#(members)}"#
  }

  /// The fixture's server messages, each as the frame kind it was recorded with.
  func serverMessages() throws -> [WebSocketMessage] {
    try Fixture.session("bithumb-session.ndjson").filter { $0.direction == "S>" }.compactMap {
      switch $0.kind {
      case "binary": .binary(Array($0.body.utf8))
      case "text": .text($0.body)
      default: nil
      }
    }
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let messages = try serverMessages()
    #expect(messages.allSatisfy { if case .binary = $0 { true } else { false } })
    let events = messages.map { provider.decode($0) }
    let expected: [ProviderEvent] = [
      .quotes([quote("KRW-BTC", "95539000", 1_783_658_381_138, volume: "0.00022664")]),
      .quotes([quote("KRW-BTC", "95540000", 1_783_658_381_574, volume: "0.0105")]),
      .quotes([quote("KRW-BTC", "95541000", 1_783_658_381_957, volume: "0.00104683")]),
      .quotes([quote("KRW-BTC", "95536000", 1_783_658_382_606, volume: "0.0316")]),
      .keepalive,
      .keepalive,
      .quotes([quote("KRW-ETH", "4145000", 1_783_658_408_586, volume: "0.1203")]),
      .quotes([quote("KRW-BTC", "95548000", 1_783_658_411_779, volume: "0.00523")]),
      .quotes([quote("KRW-ETH", "4146000", 1_783_658_412_225, volume: "0.0482")]),
      .error(VenueError(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.", fatal: true)),
    ]
    #expect(events == expected)
    // Quote equality compares prices numerically: pin the printed texts too.
    #expect(
      events.flatMap(\.quotes).map(\.price.text) == [
        "95539000", "95540000", "95541000", "95536000", "4145000", "95548000", "4146000",
      ])
    #expect(
      events.flatMap(\.quotes).map { $0.volume?.text } == [
        "0.00022664", "0.0105", "0.00104683", "0.0316", "0.1203", "0.00523", "0.0482",
      ])
  }

  @Test func textAndBinaryFramesDecodeAlike() throws {
    for message in try serverMessages() {
      guard case .binary(let bytes) = message else { continue }
      let text = WebSocketMessage.text(String(decoding: bytes, as: UTF8.self))
      #expect(provider.decode(text) == provider.decode(message))
      #expect(
        provider.decode(text).quotes.map(\.price.text) == provider.decode(message).quotes.map(\.price.text))
    }
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("bithumb-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "ticker")
    #expect(provider.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids) == [.text(sent[0])])
    #expect(provider.keepalive == KeepaliveDuty(message: .text(sent[1]), interval: .seconds(20)))
    #expect(
      provider.subscriptionMessages(from: ["KRW-BTC"], to: ["KRW-BTC", "KRW-ETH"], ids: &ids)
        == [.text(sent[2]), .text(sent[3])])
    #expect(ids.last == 3)
  }

  @Test("a fresh connection: one request; a change: the added codes' snapshots, then all in real time")
  func subscriptionChanges() {
    func request(_ ticket: Int, _ codes: [String], _ flag: String = "") -> WebSocketMessage {
      let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
      return .text(
        #"[{"ticket":"t-9f-\#(ticket)"},{"type":"trade","codes":[\#(list)]\#(flag)},{"format":"DEFAULT"}]"#)
    }
    let snapshot = #","isOnlySnapshot":true"#
    let realtime = #","isOnlyRealtime":true"#
    var ids = RequestIDs(prefix: "t-9f")
    #expect(
      provider.subscriptionMessages(from: [], to: ["KRW-BTC", "KRW-ETH"], ids: &ids)
        == [request(1, ["KRW-BTC", "KRW-ETH"])])
    // Added: its snapshot alone, then the whole list without snapshots (BTC and ETH are flowing).
    #expect(
      provider.subscriptionMessages(
        from: ["KRW-BTC", "KRW-ETH"], to: ["KRW-BTC", "KRW-ETH", "KRW-XRP"], ids: &ids)
        == [request(2, ["KRW-XRP"], snapshot), request(3, ["KRW-BTC", "KRW-ETH", "KRW-XRP"], realtime)])
    // Removed only: the rest in real time, no snapshot.
    #expect(
      provider.subscriptionMessages(from: ["KRW-BTC", "KRW-ETH", "KRW-XRP"], to: ["KRW-ETH"], ids: &ids)
        == [request(4, ["KRW-ETH"], realtime)])
    // Both at once.
    #expect(
      provider.subscriptionMessages(from: ["KRW-ETH"], to: ["KRW-BTC"], ids: &ids)
        == [request(5, ["KRW-BTC"], snapshot), request(6, ["KRW-BTC"], realtime)])
    // The same set in another order, a repeat, or nothing: no request (Bithumb refuses empty codes).
    #expect(provider.subscriptionMessages(from: ["A-B", "C-D"], to: ["C-D", "A-B"], ids: &ids) == [])
    #expect(provider.subscriptionMessages(from: ["A-B"], to: ["A-B", "A-B"], ids: &ids) == [])
    #expect(provider.subscriptionMessages(from: ["A-B"], to: [], ids: &ids) == [])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: [], to: ["A-B", "A-B"], ids: &ids) == [request(7, ["A-B"])])
    #expect(ids.last == 7)
  }

  @Test("the ticket is escaped like any JSON string")
  func ticketEscaped() {
    var ids = RequestIDs(prefix: #"a"b"#)
    #expect(
      provider.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids)
        == [.text(#"[{"ticket":"a\"b-1"},{"type":"trade","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#)])
  }

  @Test(arguments: [
    ("KRW-BTC", "KRW-BTC"), ("krw-btc", "KRW-BTC"), ("Btc-Eth", "BTC-ETH"), ("KRW-1INCH", "KRW-1INCH"),
  ])
  func codesAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: ["", "KRWBTC", "KRW-", "-BTC", "KRW--BTC", "KRW-BTC-X", "BTC_KRW", " KRW-BTC", "KRW-비트"])
  func thingsThatCannotBeCodesAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as KRW-BTC"))
  }

  @Test func marketsAreQuoteFirst() {
    #expect(provider.market(of: "KRW-BTC") == Market(base: "BTC", quote: "KRW"))
    #expect(provider.market(of: "BTC-ETH") == Market(base: "ETH", quote: "BTC"))
    #expect(provider.market(of: "KRW-USDT") == Market(base: "USDT", quote: "KRW"))
    #expect(provider.market(of: "KRWBTC") == nil)
    #expect(provider.mainMarket(for: "btc") == "KRW-BTC")
    #expect(provider.conversionPair(for: "KRW") == "KRW-USDT")
    #expect(provider.conversionPair(for: "BTC") == nil)
  }

  @Test("trades: code, price, volume and trade_timestamp read; the texts kept; KST date and time ignored")
  func trades() {
    let full = trade(
      #""trade_price":95539000,"trade_volume":0.00022664,"ask_bid":"ASK","prev_closing_price":94201000,"change":"RISE","change_price":1338000,"trade_date":"2026-07-10","trade_time":"13:39:41","trade_timestamp":1783658381138,"sequential_id":"862683813820523888","timestamp":1783658381398,"stream_type":"REALTIME""#
    )
    // 13:39:41 in Seoul is 04:39:41 UTC: the time comes from trade_timestamp alone.
    #expect(
      provider.decode(.binary(Array(full.utf8)))
        == .quotes([quote("KRW-BTC", "95539000", 1_783_658_381_138, volume: "0.00022664")]))
    // A SNAPSHOT is a quote too: the starting price.
    #expect(
      provider.decode(.text(trade(#""trade_price":1,"trade_timestamp":2,"stream_type":"SNAPSHOT""#)))
        == .quotes([quote("KRW-BTC", "1", 2)]))
    // Trailing zeros, fractions and exponent forms (written plainly).
    let exact = provider.decode(
      .text(trade(#""trade_price":0.00001640,"trade_volume":1500.00,"trade_timestamp":1"#)))
    #expect(exact.quotes.map(\.price.text) == ["0.00001640"])
    #expect(exact.quotes.map { $0.volume?.text } == ["1500.00"])
    #expect(
      provider.decode(.text(trade(#""trade_price":9.5539E7,"trade_timestamp":1.783658381138E12"#))).quotes
        .map(
          \.price.text) == ["95539000"])
    // Decimal strings, as Bithumb's REST API writes numbers, are read the same.
    #expect(
      provider.decode(.text(trade(#""trade_price":"3012.5","trade_volume":"10","trade_timestamp":"7""#)))
        == .quotes([quote("KRW-BTC", "3012.5", 7, volume: "10")]))
    // No volume, or null: a quote without volume. No trade time: the message's.
    #expect(
      provider.decode(.text(trade(#""trade_price":5,"trade_volume":null,"timestamp":9"#)))
        == .quotes([quote("KRW-BTC", "5", 9)]))
    #expect(
      provider.decode(.text(trade(#""trade_price":5,"trade_timestamp":null,"timestamp":9"#)))
        == .quotes([quote("KRW-BTC", "5", 9)]))
  }

  @Test func statusesAndOtherTypes() {
    #expect(provider.decode(.binary(Array(#"{"status":"UP"}"#.utf8))) == .keepalive)
    #expect(provider.decode(.text(#"{"status":"DOWN"}"#)) == .ignored("status DOWN"))
    #expect(
      provider.decode(
        .text(#"{"type":"ticker","code":"KRW-BTC","trade_price":95299000,"delisting_date":""}"#))
        == .ignored("ticker"))
    #expect(
      provider.decode(.text(#"{"type":"orderbook","code":"KRW-BTC","orderbook_units":[]}"#))
        == .ignored("orderbook with an empty side"))
  }

  @Test(
    "errors: each ends the run (the venue closes next, and the request would fail again)",
    arguments: [
      (
        #"{"error":{"name":"WRONG_FORMAT","message":"Format 이 맞지 않습니다."}}"#,
        VenueError(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.", fatal: true)
      ),
      (
        #"{"error":{"name":"INVALID_PARAM","message":"codes 필드가 비어 있습니다."}}"#,
        VenueError(name: "INVALID_PARAM", message: "codes 필드가 비어 있습니다.", fatal: true)
      ),
      (#"{"error":{"name":"NO_TICKET"}}"#, VenueError(name: "NO_TICKET", message: "NO_TICKET", fatal: true)),
      (#"{"error":{}}"#, VenueError(message: "unspecified error", fatal: true)),
      (#"{"error":"boom","status":"UP"}"#, VenueError(message: "boom", fatal: true)),
    ])
  func errors(text: String, expected: VenueError) {
    #expect(provider.decode(.binary(Array(text.utf8))) == .error(expected))
  }

  @Test(arguments: [
    (#"{"type":"trade","trade_price":1,"trade_timestamp":1}"#, #""code" must be a non-empty string"#),
    (
      #"{"type":"trade","code":"","trade_price":1,"trade_timestamp":1}"#,
      #""code" must be a non-empty string"#
    ),
    (#"{"type":"trade","code":"A-B","trade_timestamp":1}"#, #""trade_price" must be a number"#),
    (
      #"{"type":"trade","code":"A-B","trade_price":true,"trade_timestamp":1}"#,
      #""trade_price" must be a number"#
    ),
    (
      #"{"type":"trade","code":"A-B","trade_price":"x","trade_timestamp":1}"#,
      #""trade_price" is not a decimal number"#
    ),
    (
      #"{"type":"trade","code":"A-B","trade_price":1E999,"trade_timestamp":1}"#,
      #""trade_price" is out of range"#
    ),
    (
      #"{"type":"trade","code":"A-B","trade_price":1,"trade_volume":[],"trade_timestamp":1}"#,
      #""trade_volume" must be a number"#
    ),
    (
      #"{"type":"trade","code":"A-B","trade_price":1,"trade_volume":"","trade_timestamp":1}"#,
      #""trade_volume" is not a decimal number"#
    ),
    (#"{"type":"trade","code":"A-B","trade_price":1}"#, #"trade has no "trade_timestamp" or "timestamp""#),
    (
      #"{"type":"trade","code":"A-B","trade_price":1,"trade_timestamp":1.5}"#,
      #""trade_timestamp" must be epoch milliseconds"#
    ),
    (
      #"{"type":"trade","code":"A-B","trade_price":1,"trade_timestamp":-1}"#,
      #""trade_timestamp" must be epoch milliseconds"#
    ),
    (
      #"{"type":"trade","code":"A-B","trade_price":1,"timestamp":"13:39:41"}"#,
      #""timestamp" must be epoch milliseconds"#
    ),
    (
      #"{"code":"A-B","trade_price":1,"trade_timestamp":1}"#,
      #"message has no string "type", and no "status" or "error""#
    ),
    (#"{"status":1}"#, #""status" must be a string, not a number"#),
    (#"{"error":7}"#, #""error" must be an object, not a number"#),
    (#"["trade"]"#, "message must be a JSON object, not an array"),
    ("PING", "invalid JSON: unexpected character 'P' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 31)
    let seed = Array(
      trade(#""trade_price":95539000,"trade_volume":0.00022664,"trade_timestamp":1783658381138"#).utf8)
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

  @Test("the text PING every 20 s and the 5 s first-quote warning, both shorter when scaled")
  func timings() throws {
    #expect(provider.keepalive == KeepaliveDuty(message: .text("PING"), interval: .seconds(20)))
    #expect(provider.firstQuoteDeadline == .seconds(5))
    let fast = try #require(provider.scaled(by: 0.01) as? BithumbProvider)
    #expect(fast.keepalive?.interval == .milliseconds(200))
    #expect(fast.firstQuoteDeadline == .milliseconds(50))
    #expect(fast.scaled(by: 2).keepalive?.interval == .milliseconds(400))
  }

  @Test func settings() {
    #expect(provider.name == "bithumb" && provider.displayName == "Bithumb")
    #expect(provider.defaultURL.description == "wss://ws-api.bithumb.com/websocket/v1")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .wholeList && provider.acknowledgement == .none)
    #expect(provider.limits == VenueLimits(connectionsPerSecond: 10))
    #expect(provider.handshakeHeaders.isEmpty)
    #expect(provider.handshakeAdvice(status: 429)?.contains("10 a second") == true)
    #expect(provider.handshakeAdvice(status: 418) == nil)
    #expect(provider.exampleSymbol == "KRW-BTC")
    #expect(ProviderCatalog.provider(named: "bithumb")?.name == "bithumb")
    #expect(ProviderCatalog.all.filter { $0.name == "bithumb" }.count == 1, "listed once")
  }
}

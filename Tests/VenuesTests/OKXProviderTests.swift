import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// OKX's provider: instrument ids, one request per instrument numbered by `id`, every message
/// shape of the recorded session and of OKX's documentation, prices kept as sent.
@Suite(.ownThread) struct OKXProviderTests {
  let provider = OKXProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  /// A `tickers` push of one entry with these members after `instId`.
  func push(_ members: String, instrument: String = "BTC-USDT") -> String {
    #"{"arg":{"channel":"tickers","instId":"\#(instrument)"},"data":[{"instType":"SPOT","instId":"\#(instrument)",\#(members)}]}"#
  }

  @Test func fixtureSessionDecodesAsExpected() throws {
    let lines = try Fixture.session("okx-session.ndjson")
    let events = lines.filter { $0.direction == "S>" && $0.kind == "text" }.map {
      provider.decode(.text($0.body))
    }
    let expected: [ProviderEvent] = [
      .acknowledged(id: 1),
      .quotes([quote("BTC-USDT", "79412.6", 1_791_278_071_509, volume: "0.00081204")]),
      .quotes([quote("BTC-USDT", "79412.5", 1_791_278_071_714, volume: "0.0125")]),
      .quotes([quote("BTC-USDT", "79413", 1_791_278_071_874, volume: "0.00004")]),
      .keepalive,
      .error(
        VenueError(
          name: "60018",
          message: "Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist. Please use the correct URL, "
            + "channel and parameters referring to API document.", requestID: 2, fatal: false,
          symbol: "NOPE-USDT")),
      .quotes([quote("BTC-USDT", "79415.2", 1_791_278_091_826, volume: "0.3")]),
    ]
    #expect(events == expected)
    // The text of every price and size, exactly as sent.
    #expect(events.flatMap(\.quotes).map(\.price.text) == ["79412.6", "79412.5", "79413", "79415.2"])
    #expect(events.flatMap(\.quotes).map { $0.volume?.text } == ["0.00081204", "0.0125", "0.00004", "0.3"])
  }

  @Test func fixtureClientMessagesMatchOurs() throws {
    let sent = try Fixture.session("okx-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "unused")
    #expect(provider.subscriptionMessages(from: [], to: ["BTC-USDT"], ids: &ids) == [.text(sent[0])])
    #expect(provider.keepalive?.message == .text(sent[1]))
    #expect(
      provider.subscriptionMessages(from: ["BTC-USDT"], to: ["BTC-USDT", "NOPE-USDT"], ids: &ids)
        == [.text(sent[2])])
    #expect(ids.last == 2)
  }

  @Test("one request per instrument, removals first, each with the next id")
  func subscriptionChanges() {
    func request(_ op: String, _ instrument: String, _ id: Int) -> WebSocketMessage {
      .text(#"{"id":"\#(id)","op":"\#(op)","args":[{"channel":"tickers","instId":"\#(instrument)"}]}"#)
    }
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: [], to: ["BTC-USDT", "ETH-USDT"], ids: &ids)
        == [request("subscribe", "BTC-USDT", 1), request("subscribe", "ETH-USDT", 2)])
    #expect(
      provider.subscriptionMessages(from: ["BTC-USDT", "ETH-USDT"], to: ["ETH-USDT", "SOL-USDT"], ids: &ids)
        == [request("unsubscribe", "BTC-USDT", 3), request("subscribe", "SOL-USDT", 4)])
    #expect(provider.subscriptionMessages(from: ["A-B", "C-D"], to: ["C-D", "A-B"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["A-B", "C-D"], to: [], ids: &ids)
        == [request("unsubscribe", "A-B", 5), request("unsubscribe", "C-D", 6)])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    #expect(ids.last == 6)
  }

  @Test(arguments: [
    ("BTC-USDT", "BTC-USDT"), ("btc-usdt", "BTC-USDT"), ("Eth-Btc", "ETH-BTC"), ("1INCH-USDT", "1INCH-USDT"),
  ])
  func instrumentsAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
    #expect(provider.serverSymbol(for: canonical) == canonical)
  }

  @Test(arguments: ["", "BTCUSDT", "BTC-", "BTC-USDT-SWAP", "BTC/USDT", "BTC_USDT", " BTC-USDT", "ÉTH-USDT"])
  func thingsThatCannotBeInstrumentsAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as BTC-USDT"))
  }

  @Test func marketsSplitAtTheHyphen() {
    #expect(provider.market(of: "BTC-USDT") == Market(base: "BTC", quote: "USDT"))
    #expect(provider.market(of: "ETH-BTC") == Market(base: "ETH", quote: "BTC"))
    #expect(provider.market(of: "BTCUSDT") == nil)
    #expect(provider.mainMarket(for: "btc") == "BTC-USDT")
    #expect(provider.mainMarket(for: "ETH") == "ETH-USDT")
  }

  @Test("tickers: last, lastSz and ts read; the texts kept; the other fields ignored")
  func tickers() {
    #expect(
      provider.decode(.text(push(#""last":"9999.99","lastSz":"0.1","askPx":"10000","ts":"1597026383085""#)))
        == .quotes([quote("BTC-USDT", "9999.99", 1_597_026_383_085, volume: "0.1")]))
    // Trailing zeros and long fractions stay as written.
    let exact = provider.decode(.text(push(#""last":"0.000012340","lastSz":"1500.00","ts":"1""#)))
    #expect(exact.quotes.map(\.price.text) == ["0.000012340"])
    #expect(exact.quotes.map { $0.volume?.text } == ["1500.00"])
    // No size, an empty size, or null: a quote without volume.
    for size in [#""#, #","lastSz":"""#, #","lastSz":null"#] {
      #expect(
        provider.decode(.text(push(#""last":"1"\#(size),"ts":"2""#))) == .quotes([quote("BTC-USDT", "1", 2)]))
    }
    // `ts` as a number is read too.
    #expect(provider.decode(.text(push(#""last":"1","ts":3"#))) == .quotes([quote("BTC-USDT", "1", 3)]))
    // Without "ts": a price all the same, placed at its arrival by the runtime (time 0 here).
    #expect(provider.decode(.text(push(#""last":"1""#))) == .quotes([quote("BTC-USDT", "1", 0)]))
    // An entry without instId takes the push's.
    #expect(
      provider.decode(
        .text(#"{"arg":{"channel":"tickers","instId":"ETH-USDT"},"data":[{"last":"2","ts":"4"}]}"#))
        == .quotes([quote("ETH-USDT", "2", 4)]))
    // Several entries: each is a quote, in order.
    #expect(
      provider.decode(
        .text(
          #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","ts":"1"},{"instId":"A-B","last":"2","ts":"2"}]}"#
        )) == .quotes([quote("A-B", "1", 1), quote("A-B", "2", 2)]))
    // An instrument that never traded has an empty last: nothing to print, nothing wrong.
    #expect(
      provider.decode(.text(push(#""last":"","lastSz":"","ts":"5""#))) == .ignored(#"tickers without "last""#)
    )
  }

  @Test("a push with good and bad entries keeps the good ones and says which were dropped")
  func partial() {
    #expect(
      provider.decode(
        .text(
          #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","ts":"1"},{"instId":"A-B","last":1,"ts":"2"},7]}"#
        ))
        == .partial(
          [quote("A-B", "1", 1)],
          dropped: [#"data[1]: "last" must be a decimal string"#, "data[2]: must be an object, not a number"])
    )
  }

  @Test func answersAndEvents() {
    #expect(provider.decode(.text("pong")) == .keepalive)
    #expect(provider.decode(.binary(Array("pong".utf8))) == .keepalive)
    #expect(
      provider.decode(
        .text(
          #"{"id":"12","event":"subscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"connId":"a4d3ae55"}"#
        ))
        == .acknowledged(id: 12))
    #expect(
      provider.decode(
        .text(#"{"event":"unsubscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"connId":"d0b44253"}"#)
      )
        == .acknowledged(id: nil))
    #expect(
      provider.decode(
        .text(
          #"{"event":"notice","code":"64008","msg":"The connection will soon be closed for a service upgrade. Please reconnect.","connId":"a4d3ae55"}"#
        ))
        == .closingSoon("The connection will soon be closed for a service upgrade. Please reconnect."))
    #expect(provider.decode(.text(#"{"event":"notice","code":"1","msg":"x"}"#)) == .ignored("notice"))
    #expect(
      provider.decode(
        .text(#"{"event":"channel-conn-count","channel":"orders","connCount":"2","connId":"x"}"#))
        == .ignored("channel-conn-count"))
    #expect(
      provider.decode(.text(#"{"event":"login","code":"0","msg":"","connId":"a"}"#)) == .ignored("login"))
    #expect(
      provider.decode(.text(#"{"arg":{"channel":"trades","instId":"BTC-USDT"},"data":[]}"#))
        == .ignored("channel trades"))
  }

  @Test(
    "errors: an unknown instrument is refused alone (not fatal); other refusals end the request",
    arguments: [
      (
        #"{"id":"3","event":"error","code":"60018","msg":"Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist. Please use the correct URL, channel and parameters referring to API document.","connId":"a"}"#,
        VenueError(
          name: "60018",
          message: "Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist. Please use the correct URL, "
            + "channel and parameters referring to API document.", requestID: 3, fatal: false,
          symbol: "NOPE-USDT")
      ),
      (
        // The older text, without an id (observed in 2023).
        #"{"event":"error","msg":"channel:tickers,instId:LTC-USD doesn't exist","code":"60018"}"#,
        VenueError(
          name: "60018", message: "channel:tickers,instId:LTC-USD doesn't exist", fatal: false,
          symbol: "LTC-USD")
      ),
      (
        // The newer text (in later captures): the instrument is found the same way.
        #"{"event":"error","msg":"Subscribe failed, wrong URL or channel:tickers,instId:X-Y doesn't exist.","code":"60018","connId":"e"}"#,
        VenueError(
          name: "60018", message: "Subscribe failed, wrong URL or channel:tickers,instId:X-Y doesn't exist.",
          fatal: false, symbol: "X-Y")
      ),
      (
        #"{"event":"error","code":"60018","msg":"Wrong URL or channel:candle1m doesn't exist.","connId":"a"}"#,
        VenueError(name: "60018", message: "Wrong URL or channel:candle1m doesn't exist.", fatal: true)
      ),
      (
        #"{"id":"1512","event":"error","code":"60012","msg":"Invalid request: {\"op\": \"subscribe\", \"argss\":[{ \"channel\" : \"tickers\", \"instId\" : \"LTC-USD-200327\"}]}","connId":"a4d3ae55"}"#,
        VenueError(
          name: "60012",
          message:
            #"Invalid request: {"op": "subscribe", "argss":[{ "channel" : "tickers", "instId" : "LTC-USD-200327"}]}"#,
          requestID: 1512, fatal: true)
      ),
      (
        #"{"id":"9","event":"error","code":"60014","msg":"Requests too frequent.","connId":"a"}"#,
        VenueError(name: "60014", message: "Requests too frequent.", requestID: 9, fatal: false)
      ),
      (#"{"event":"error"}"#, VenueError(message: "unspecified error", fatal: true)),
      (
        #"{"event":"error","code":60019,"msg":""}"#,
        VenueError(name: "60019", message: "unspecified error", fatal: true)
      ),
    ])
  func errors(text: String, expected: VenueError) {
    #expect(provider.decode(.text(text)) == .error(expected))
  }

  @Test(arguments: [
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","ts":"1"}]}"#,
      #"data[0]: "last" must be a decimal string"#
    ),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1.","ts":"1"}]}"#,
      #"data[0]: "last" is not a decimal number"#
    ),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","lastSz":0.1,"ts":"1"}]}"#,
      #"data[0]: "lastSz" must be a decimal string"#
    ),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","lastSz":"x","ts":"1"}]}"#,
      #"data[0]: "lastSz" is not a decimal number"#
    ),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","ts":true}]}"#,
      #"data[0]: "ts" must be epoch milliseconds, a string"#
    ),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","ts":"1.5"}]}"#,
      #"data[0]: "ts" must be epoch milliseconds"#
    ),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"1","ts":"-1"}]}"#,
      #"data[0]: "ts" must be epoch milliseconds"#
    ),
    (#"{"arg":{"channel":"tickers"},"data":[{"last":"1","ts":"1"}]}"#, #"data[0]: ticker has no "instId""#),
    (
      #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"","last":"1","ts":"1"}]}"#,
      #"data[0]: "instId" must be a non-empty string"#
    ),
    (#"{"arg":{"channel":"tickers","instId":"A-B"},"data":{}}"#, #""data" must be an array"#),
    (#"{"arg":{"instId":"A-B"},"data":[]}"#, #""arg" has no string "channel""#),
    (#"{"data":[]}"#, #"message has no "event" and no "arg" object"#),
    (#"{"event":1}"#, #""event" must be a string, not a number"#),
    (#""pong""#, "message must be a JSON object, not a string"),
    ("ping", "invalid JSON: unexpected character 'p' at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func garbageNeverTraps() {
    var generator = SplitMix64(seed: 13)
    let seed = Array(push(#""last":"9999.99","lastSz":"0.1","ts":"1597026383085""#).utf8)
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

  @Test("the text ping every 20 s (under OKX's 30 s), shorter when asked")
  func keepalive() {
    #expect(provider.keepalive == KeepaliveDuty(message: .text("ping"), interval: .seconds(20)))
    #expect(OKXProvider(keepaliveInterval: .milliseconds(300)).keepalive?.interval == .milliseconds(300))
  }

  @Test func settings() {
    #expect(provider.name == "okx" && provider.displayName == "OKX")
    #expect(provider.defaultURL.description == "wss://ws.okx.com:8443/ws/v5/public")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.subscriptionStyle == .incremental && provider.acknowledgement == .byID)
    #expect(provider.firstQuoteDeadline == nil)
    #expect(provider.limits == VenueLimits(requestsPerHour: 480, connectionsPerSecond: 3))
    #expect(provider.limits.messagesPerSecond == nil)
    #expect(provider.handshakeAdvice(status: 429)?.contains("3 a second") == true)
    #expect(provider.handshakeAdvice(status: 451) == nil)
    #expect(ProviderCatalog.provider(named: "okx")?.name == "okx")
  }
}

/// The top of book (`--bid-ask`): the `bbo-tbt` channel.
@Suite(.ownThread) struct OKXBookTests {
  let provider = OKXProvider(stream: .topOfBook)

  func book(_ bid: String, _ bidSize: String, _ ask: String, _ askSize: String, _ time: Int64) -> Quote {
    Quote(
      symbol: "BTC-USDT", bid: Price(bid)!, bidSize: Price(bidSize)!, ask: Price(ask)!,
      askSize: Price(askSize)!,
      time: time)
  }

  /// A `bbo-tbt` push of one entry with these members.
  func push(_ members: String, instrument: String = "BTC-USDT") -> String {
    #"{"arg":{"channel":"bbo-tbt","instId":"\#(instrument)"},"data":[{\#(members)}]}"#
  }

  @Test("topOfBook: the same venue on bbo-tbt, its keepalive scaled alike")
  func variant() throws {
    let book = try #require(OKXProvider().topOfBook)
    #expect(book.stream == .topOfBook && book.name == "okx" && book.keepalive == OKXProvider().keepalive)
    #expect(book.scaled(by: 0.5).stream == .topOfBook && OKXProvider().scaled(by: 0.5).stream == .trades)
  }

  @Test("a bbo-tbt push decodes to its best bid and ask, digits exactly as sent, whatever the stream")
  func documentedPush() {
    let text =
      #"{"arg":{"channel":"bbo-tbt","instId":"BTC-USDT"},"data":[{"asks":[["97250.1","0.5","0","2"]],"bids":[["97250","1.2","0","3"]],"ts":"1733450000000","seqId":123}]}"#
    let expected = ProviderEvent.quotes([book("97250", "1.2", "97250.1", "0.5", 1_733_450_000_000)])
    #expect(provider.decode(.text(text)) == expected)
    // The channel says what it is: the trade stream reads it alike (a recording replays).
    #expect(OKXProvider().decode(.text(text)) == expected)
    let quote = provider.decode(.text(text)).quotes.first
    #expect(
      [quote?.bid.text, quote?.ask?.price.text, quote?.bidSize?.text, quote?.ask?.size?.text] == [
        "97250", "97250.1", "1.2", "0.5",
      ])
  }

  @Test("one request per instrument on bbo-tbt, numbered by id")
  func subscriptions() {
    var ids = RequestIDs(prefix: "unused")
    #expect(
      provider.subscriptionMessages(from: ["BTC-USDT"], to: ["ETH-USDT", "SOL-USDT"], ids: &ids) == [
        .text(#"{"id":"1","op":"unsubscribe","args":[{"channel":"bbo-tbt","instId":"BTC-USDT"}]}"#),
        .text(#"{"id":"2","op":"subscribe","args":[{"channel":"bbo-tbt","instId":"ETH-USDT"}]}"#),
        .text(#"{"id":"3","op":"subscribe","args":[{"channel":"bbo-tbt","instId":"SOL-USDT"}]}"#),
      ])
    #expect(
      OKXProvider().subscriptionMessages(from: [], to: ["BTC-USDT"], ids: &ids)
        == [.text(#"{"id":"4","op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#)])
  }

  @Test("answers and refusals on bbo-tbt as on tickers")
  func answers() {
    #expect(
      provider.decode(
        .text(
          #"{"id":"2","event":"subscribe","arg":{"channel":"bbo-tbt","instId":"BTC-USDT"},"connId":"a4d3ae55"}"#
        ))
        == .acknowledged(id: 2))
    let message =
      "Wrong URL or channel:bbo-tbt,instId:NOPE-USDT doesn't exist. Please use the correct URL, channel and parameters referring to API document."
    #expect(
      provider.decode(
        .text(#"{"id":"3","event":"error","code":"60018","msg":"\#(message)","connId":"a4d3ae55"}"#))
        == .error(
          VenueError(name: "60018", message: message, requestID: 3, fatal: false, symbol: "NOPE-USDT")))
  }

  @Test("a side without a level: nothing for that push")
  func emptySide() {
    #expect(
      provider.decode(.text(push(#""asks":[],"bids":[["1","2","0","1"]],"ts":"5","seqId":1"#)))
        == .ignored("bbo-tbt with a side empty"))
  }

  @Test(
    "hostile pushes are malformed, never a quote",
    arguments: [
      (
        #""asks":[["1.5","2","0","1"]],"bids":[["1.4","2","0","1"]],"ts":5"#,
        #"data[0]: "ts" must be a string of epoch milliseconds"#
      ),
      (
        #""asks":[["1.5","2","0","1"]],"bids":[["1.4","2","0","1"]]"#,
        #"data[0]: "ts" must be a string of epoch milliseconds"#
      ),
      (#""asks":[["1.5","2","0","1"]],"ts":"5""#, #"data[0]: "bids" must be an array of levels"#),
      (
        #""asks":[[1.5,"2","0","1"]],"bids":[["1.4","2","0","1"]],"ts":"5""#,
        #"data[0]: a level of "asks" must be [price, size, …] in strings"#
      ),
      (
        #""asks":[["1.5"]],"bids":[["1.4","2","0","1"]],"ts":"5""#,
        #"data[0]: a level of "asks" must be [price, size, …] in strings"#
      ),
      (
        #""asks":[["1.5","2","0","1"]],"bids":[["x","2","0","1"]],"ts":"5""#,
        #"data[0]: a level of "bids" is not decimal numbers"#
      ),
      (
        #""asks":"none","bids":[["1.4","2","0","1"]],"ts":"5""#,
        #"data[0]: "asks" must be an array of levels"#
      ),
    ])
  func hostile(members: String, problem: String) {
    #expect(provider.decode(.text(push(members))) == .malformed(problem))
  }

  @Test("a push without its instrument is malformed; a huge one is read level by level, nothing kept")
  func noInstrumentAndHuge() {
    #expect(
      provider.decode(
        .text(
          #"{"arg":{"channel":"bbo-tbt"},"data":[{"asks":[["1.5","2","0","1"]],"bids":[["1.4","2","0","1"]],"ts":"5"}]}"#
        ))
        == .malformed(#"a "bbo-tbt" push needs a string "instId" in "arg""#))
    let level = #"["1.5","2","0","1"]"#
    let side = "[" + Array(repeating: level, count: 50_000).joined(separator: ",") + "]"
    let huge = push(#""asks":\#(side),"bids":\#(side),"ts":"5""#)
    #expect(provider.decode(.text(huge)) == .quotes([book("1.5", "2", "1.5", "2", 5)]))
  }

  @Test("random damage to a push never traps")
  func garbageNeverTraps() {
    var generator = SplitMix64(seed: 29)
    let seed = Array(
      push(
        #""asks":[["97250.1","0.5","0","2"]],"bids":[["97250","1.2","0","3"]],"ts":"1733450000000","seqId":123"#
      ).utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<3 {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      _ = provider.decode(.binary(bytes))
    }
    #expect(provider.decode(.binary(seed)).quotes.first?.ask?.price.text == "97250.1")
  }
}

import Testing

@testable import JSON
@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

@Suite(.ownThread) struct UpbitProviderTests {
  let provider = UpbitProvider()

  func quote(_ symbol: String, _ price: String, _ time: Int64, volume: String? = nil) -> Quote {
    Quote(symbol: symbol, price: Price(price)!, volume: volume.map { Price($0)! }, time: time)
  }

  /// The fixture's server messages, each as the frame kind it was recorded with.
  func serverMessages() throws -> [WebSocketMessage] {
    try Fixture.session("upbit-session.ndjson").filter { $0.direction == "S>" }.compactMap {
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
      .quotes([quote("KRW-BTC", "103160000.0", 1_771_247_814_642, volume: "0.0005")]),
      .quotes([quote("KRW-BTC", "103156000", 1_771_247_815_101, volume: "0.00049")]),
      .keepalive,
      .keepalive,
      .error(VenueError(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.", fatal: true)),
    ]
    #expect(events == expected)
    // Quote equality compares prices numerically: pin the printed texts too.
    #expect(events.flatMap(\.quotes).map(\.price.text) == ["103160000.0", "103156000"])
    #expect(events.flatMap(\.quotes).map { $0.volume?.text } == ["0.0005", "0.00049"])
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
    let sent = try Fixture.session("upbit-session.ndjson").filter { $0.direction == "C>" }.map(\.body)
    var ids = RequestIDs(prefix: "ticker")
    #expect(provider.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids) == [.text(sent[0])])
    #expect(provider.keepalive == KeepaliveDuty(message: .text(sent[1]), interval: .seconds(25)))
  }

  @Test func everyChangeResendsTheWholeListUnderAFreshTicket() {
    var ids = RequestIDs(prefix: "ticker-3f9a")
    let initial = provider.subscriptionMessages(from: [], to: ["KRW-BTC", "KRW-ETH"], ids: &ids)
    #expect(
      initial == [
        .text(
          #"[{"ticket":"ticker-3f9a-1"},{"type":"ticker","codes":["KRW-BTC","KRW-ETH"]},{"format":"SIMPLE"}]"#
        )
      ])
    let added = provider.subscriptionMessages(
      from: ["KRW-BTC", "KRW-ETH"], to: ["KRW-BTC", "KRW-ETH", "KRW-XRP"], ids: &ids)
    #expect(
      added == [
        .text(
          #"[{"ticket":"ticker-3f9a-2"},{"type":"ticker","codes":["KRW-BTC","KRW-ETH","KRW-XRP"]},{"format":"SIMPLE"}]"#
        )
      ])
    let removed = provider.subscriptionMessages(
      from: ["KRW-BTC", "KRW-ETH", "KRW-XRP"], to: ["KRW-ETH"], ids: &ids)
    #expect(
      removed == [
        .text(#"[{"ticket":"ticker-3f9a-3"},{"type":"ticker","codes":["KRW-ETH"]},{"format":"SIMPLE"}]"#)
      ])
    let replaced = provider.subscriptionMessages(from: ["KRW-ETH"], to: ["BTC-ETH", "KRW-SOL"], ids: &ids)
    #expect(
      replaced == [
        .text(
          #"[{"ticket":"ticker-3f9a-4"},{"type":"ticker","codes":["BTC-ETH","KRW-SOL"]},{"format":"SIMPLE"}]"#
        )
      ])
    #expect(ids.last == 4)
  }

  @Test func nothingChangedOrNothingLeftSendsNothing() {
    var ids = RequestIDs(prefix: "t")
    #expect(provider.subscriptionMessages(from: ["KRW-BTC"], to: ["KRW-BTC"], ids: &ids) == [])
    #expect(
      provider.subscriptionMessages(from: ["KRW-BTC", "KRW-ETH"], to: ["KRW-ETH", "KRW-BTC"], ids: &ids) == []
    )
    // Upbit has no unsubscribe: an empty list is not a request it accepts.
    #expect(provider.subscriptionMessages(from: ["KRW-BTC"], to: [], ids: &ids) == [])
    #expect(provider.subscriptionMessages(from: [], to: [], ids: &ids) == [])
    #expect(ids.last == 0)
    // A code listed twice is sent once.
    #expect(
      provider.subscriptionMessages(from: [], to: ["KRW-BTC", "KRW-BTC"], ids: &ids)
        == [.text(#"[{"ticket":"t-1"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"SIMPLE"}]"#)])
  }

  @Test func requestsAreValidJSONWhateverTheTicket() throws {
    var ids = RequestIDs(prefix: #"we"ird\"#)
    guard case .text(let text)? = provider.subscriptionMessages(from: [], to: ["KRW-BTC"], ids: &ids).first
    else {
      Issue.record("no request")
      return
    }
    let json = try JSONParser().parse(text)
    #expect(json.arrayValue?.first?["ticket"] == .string(#"we"ird\-1"#))
  }

  @Test(arguments: [
    ("KRW-BTC", "KRW-BTC"), ("krw-btc", "KRW-BTC"), ("Krw-Eth", "KRW-ETH"), ("BTC-1INCH", "BTC-1INCH"),
    ("USDT-BTC", "USDT-BTC"),
  ])
  func codesAreCanonicalisedToUpperCase(input: String, canonical: String) {
    #expect(provider.canonicalSymbol(input) == .success(canonical))
  }

  @Test(arguments: [
    "", "KRWBTC", "KRW-", "-BTC", "KRW--BTC", "KRW-BTC-X", "KRW BTC", "KRW-BTC ", "KRW_BTC", "KRW-BTÇ",
    "BINANCE:BTCUSDT",
  ])
  func thingsThatCannotBeCodesAreRefused(input: String) {
    guard case .failure(let error) = provider.canonicalSymbol(input) else {
      Issue.record("\(input) accepted")
      return
    }
    #expect(error.message.contains("such as KRW-BTC"))
  }

  @Test func defaultKeysDecodeLikeSimpleOnes() {
    let text =
      #"{"type":"ticker","code":"KRW-ETH","opening_price":4.5E6,"trade_price":4521000.0,"trade_volume":1.2E-3,"trade_timestamp":1771247814642,"timestamp":1771247814700,"stream_type":"REALTIME","delisting_date":null,"is_trading_suspended":false}"#
    let event = provider.decode(.binary(Array(text.utf8)))
    #expect(event == .quotes([quote("KRW-ETH", "4521000.0", 1_771_247_814_642, volume: "0.0012")]))
    #expect(event.quotes.first?.price.text == "4521000.0")
    #expect(event.quotes.first?.volume?.text == "0.0012")
  }

  @Test func timeFallsBackToTheMessageTimestamp() {
    let simple = #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"tms":1700000000001}"#
    #expect(provider.decode(.text(simple)) == .quotes([quote("KRW-BTC", "1", 1_700_000_000_001)]))
    let full =
      #"{"type":"ticker","code":"KRW-BTC","trade_price":1,"timestamp":1700000000002,"trade_timestamp":null}"#
    #expect(provider.decode(.text(full)) == .quotes([quote("KRW-BTC", "1", 1_700_000_000_002)]))
    // A server printing every number as a double: a whole number in exponent form is a time.
    let exponent = #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1.771247814642E12}"#
    #expect(provider.decode(.text(exponent)) == .quotes([quote("KRW-BTC", "1", 1_771_247_814_642)]))
  }

  @Test func statusAndOtherTypes() {
    #expect(provider.decode(.binary(Array(#"{"status":"UP"}"#.utf8))) == .keepalive)
    #expect(provider.decode(.text(#"{"status":"DOWN"}"#)) == .ignored("status DOWN"))
    #expect(provider.decode(.text(#"{"ty":"trade","cd":"KRW-BTC","tp":1,"ttms":1}"#)) == .ignored("trade"))
    #expect(provider.decode(.text(#"{"type":"candle.1s","code":"KRW-BTC"}"#)) == .ignored("candle.1s"))
    // An orderbook is read whatever the stream (UpbitOrderbookTests), so a broken one is malformed.
    #expect(
      provider.decode(.text(#"{"type":"orderbook"}"#))
        == .malformed(#""cd"/"code" must be a non-empty string"#))
    #expect(
      provider.decode(.text(#"{"error":{"name":"NO_TICKET","message":"ticket 이 없습니다."}}"#))
        == .error(VenueError(name: "NO_TICKET", message: "ticket 이 없습니다.", fatal: true)))
    #expect(
      provider.decode(.text(#"{"error":{"name":"INVALID_PARAM"}}"#))
        == .error(VenueError(name: "INVALID_PARAM", message: "INVALID_PARAM", fatal: true)))
    #expect(provider.decode(.text(#"{"error":"boom"}"#)) == .error(VenueError(message: "boom", fatal: true)))
  }

  @Test(arguments: [
    (#"{"ty":"ticker","tp":1,"ttms":1}"#, #""cd"/"code" must be a non-empty string"#),
    (#"{"ty":"ticker","cd":"","tp":1,"ttms":1}"#, #""cd"/"code" must be a non-empty string"#),
    (#"{"ty":"ticker","cd":"KRW-BTC","tp":"1","ttms":1}"#, #""tp"/"trade_price" must be a number"#),
    (#"{"ty":"ticker","cd":"KRW-BTC","tp":1e999,"ttms":1}"#, #""tp"/"trade_price" is out of range"#),
    (#"{"ty":"ticker","cd":"KRW-BTC","tp":1,"tv":"2","ttms":1}"#, #""tv"/"trade_volume" must be a number"#),
    (
      #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1.5}"#,
      #""ttms"/"trade_timestamp" must be an integer (epoch milliseconds)"#
    ),
    (
      #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":99999999999999999999}"#,
      #""ttms"/"trade_timestamp" must be an integer (epoch milliseconds)"#
    ),
    (
      #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"tms":"now"}"#,
      #""tms"/"timestamp" must be an integer (epoch milliseconds)"#
    ),
    (
      #"{"ty":"ticker","cd":"KRW-BTC","tp":1}"#,
      #"ticker has no "ttms"/"trade_timestamp" or "tms"/"timestamp""#
    ),
    (#"{"ty":5}"#, #"message has no string "ty"/"type", and no "status" or "error""#),
    (#"{}"#, #"message has no string "ty"/"type", and no "status" or "error""#),
    (#"{"status":1}"#, #""status" must be a string, not a number"#),
    (#"{"error":[1]}"#, #""error" must be an object, not an array"#),
    (#"[{"ty":"ticker"}]"#, "message must be a JSON object, not an array"),
    ("PONG", "invalid JSON: unexpected character 'P' at byte 0"),
    ("", "invalid JSON: unexpected end of input at byte 0"),
  ])
  func malformedMessages(text: String, reason: String) {
    #expect(provider.decode(.text(text)) == .malformed(reason))
    #expect(provider.decode(.binary(Array(text.utf8))) == .malformed(reason))
  }

  @Test func binaryGarbageIsMalformedNotACrash() {
    let garbage: [[UInt8]] = [
      [0xFF, 0xFE, 0x00], [0x7B, 0x22, 0xC3], Array(repeating: 0x5B, count: 10_000), [0x00],
    ]
    for bytes in garbage {
      guard case .malformed = provider.decode(.binary(bytes)) else {
        Issue.record("\(bytes.prefix(8)) was not malformed")
        continue
      }
    }
  }

  @Test func settings() {
    #expect(provider.name == "upbit" && provider.displayName == "Upbit")
    #expect(provider.defaultURL.description == "wss://api.upbit.com/websocket/v1")
    #expect(provider.tokenVariable == nil && !provider.requiresToken)
    #expect(provider.handshakeHeaders.isEmpty)
    #expect(provider.subscriptionStyle == .wholeList)
    #expect(provider.limits == VenueLimits(messagesPerSecond: 5))
    #expect(provider.firstQuoteDeadline == .seconds(5))
    #expect(provider.serverSymbol(for: "KRW-BTC") == "KRW-BTC")
    #expect(provider.handshakeAdvice(status: 429)?.contains("wait") == true)
    #expect(provider.handshakeAdvice(status: 418)?.contains("banned") == true)
    #expect(provider.handshakeAdvice(status: 500) == nil)
    #expect(provider.decodeLarge(.text("{}")) == nil)
    #expect(ProviderCatalog.provider(named: "upbit")?.name == "upbit")
  }
}

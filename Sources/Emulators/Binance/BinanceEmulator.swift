import JSON
import Recording
import Venues
import WebSocketServer
import WebSocketWire

/// What Binance Spot does with a connection, as a pure state machine (docs/protocols.md §3):
///
/// - The upgrade: `/ws`, `/ws/<stream>…` (raw payloads) and `/stream[?streams=a/b]` (payloads
///   wrapped as `{"stream":…,"data":…}`) are served; streams in the URL count as subscribed.
///   Any other path is refused with 404, an invalid stream name in the URL with 400 (our
///   choice: the venue's answer there is not documented).
/// - Requests `{"method":…,"params":[…],"id":n}` (`id` an unsigned integer): `SUBSCRIBE` and
///   `UNSUBSCRIBE` are answered `{"result":null,"id":n}`; `LIST_SUBSCRIPTIONS` with the list;
///   `SET_PROPERTY`/`GET_PROPERTY` `combined`. A bad request (invalid stream name, unknown
///   method, bad id, not JSON, a binary frame) is answered
///   `{"error":{"code":…,"msg":…},"id":…}` and closed with 1008, as recorded for an invalid
///   stream (the other cases' messages follow Binance's documented error list).
/// - Trades go out only for subscribed streams, wrapped on a combined connection.
/// - A ping frame every `pingInterval`; a ping whose payload no pong has echoed within
///   `pongTimeout` gets the connection **dropped** without a close frame (Binance documents
///   only "disconnected"; a client that stopped answering would not answer a close either).
///   Unsolicited pongs are allowed and change nothing.
/// - More than `messagesPerWindow` client frames in `rateWindow` (text, binary, ping and pong
///   alike) is closed with 1008.
struct BinanceEmulator: VenueEmulator {
  let rules: BinanceRules
  private(set) var combined = false
  private(set) var streams: [String] = []
  private(set) var requestCount = 0
  private var rate: RateWindow
  private var nextPing: Duration?
  /// Pings not yet answered: payload and when it went out, oldest first.
  private var outstanding: [(payload: [UInt8], sentAt: Duration)] = []
  private var closed = false
  private var afterScriptedError = false
  /// The last scripted trade per stream (where the synthetic stream starts).
  private var lastTrades: [String: (price: String, time: Int64)] = [:]
  private var nextTradeID: Int64 = 1

  init(script: SessionScript, rules: BinanceRules) {
    self.rules = rules
    rate = RateWindow(limit: rules.messagesPerWindow, window: .seconds(fractional: rules.rateWindow))
    nextPing = rules.pingInterval.map { .seconds(fractional: max($0, 0.001)) }
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body), let (stream, data) = Self.trade(in: value),
        let price = data["p"]?.stringValue, let time = data["T"]?.numberText.flatMap({ Int64($0) })
      else { continue }
      if time >= lastTrades[stream]?.time ?? .min { lastTrades[stream] = (price, time) }
      if let id = data["t"]?.numberText.flatMap({ Int64($0) }) { nextTradeID = max(nextTradeID, id + 1) }
    }
  }

  /// The stream and payload of a trade message, wrapped or not.
  static func trade(in value: JSONValue) -> (stream: String, data: JSONValue)? {
    if let stream = value["stream"]?.stringValue, let data = value["data"], data["e"]?.stringValue != nil {
      return (stream, data)
    }
    if let event = value["e"]?.stringValue, let symbol = value["s"]?.stringValue {
      return (symbol.lowercased() + "@" + event, value)
    }
    return nil
  }

  static func error(code: Int, _ message: String, id: String) -> String {
    #"{"error":{"code":\#(code),"msg":\#(JSONEscaping.quoted(message))},"id":\#(id)}"#
  }

  // MARK: VenueEmulator

  mutating func admit(_ request: ServerHandshake.Request) -> Admission {
    switch BinanceStreams.endpoint(target: request.target) {
    case .success(let endpoint):
      combined = endpoint.combined
      streams = endpoint.streams
      return .accept
    case .failure(.unknownPath(let path)):
      return .refuse(status: 404, reason: "Not Found", violation: .refusedHandshake("unknown path \(path)"))
    case .failure(.invalidStream(let stream)):
      return .refuse(
        status: 400, reason: "Bad Request", violation: .refusedHandshake("invalid stream \(stream)"))
    case .failure(.tooManyStreams):
      return .refuse(status: 400, reason: "Bad Request", violation: .refusedHandshake("too many streams"))
    }
  }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    guard rate.admit(at: now) else {
      closed = true
      return [
        .violation(.tooManyMessages),
        .close(CloseStatus(code: .policyViolation, reason: "Too many messages")),
      ]
    }
    switch input {
    case .ping: return []
    case .pong(let payload):
      if let index = outstanding.firstIndex(where: { $0.payload == payload }) {
        outstanding.removeFirst(index + 1)
      }
      return []
    case .binary:
      return fail(code: 3, "Invalid JSON: expected value at line 1 column 1", id: "null")
    case .text(let text):
      return request(text)
    }
  }

  /// One JSON request.
  private mutating func request(_ text: String) -> [EmulatorAction] {
    guard let value = try? JSONParser().parse(text) else {
      return fail(code: 3, "Invalid JSON: expected value at line 1 column 1", id: "null")
    }
    guard case .object(let object) = value, let method = object["method"]?.stringValue else {
      return fail(code: 2, "Invalid request: missing field `method`", id: "null")
    }
    guard let id = object["id"]?.numberText, UInt64(id) != nil else {
      return fail(code: 2, "Invalid request: request ID must be an unsigned integer", id: "null")
    }
    let params = object["params"]?.arrayValue
    switch method {
    case "SUBSCRIBE", "UNSUBSCRIBE":
      requestCount += 1
      guard let params else { return fail(code: 2, "Invalid request: missing field `params`", id: id) }
      let names = params.compactMap(\.stringValue)
      guard names.count == params.count, names.allSatisfy(BinanceStreams.isValid) else {
        return fail(code: 2, "Invalid request: invalid stream", id: id)
      }
      if method == "SUBSCRIBE" {
        for name in names where !streams.contains(name) { streams.append(name) }
        if streams.count > BinanceStreams.maximumStreams {
          return fail(code: 2, "Invalid request: too many streams", id: id)
        }
      } else {
        streams.removeAll { names.contains($0) }
      }
      return [.text(#"{"result":null,"id":\#(id)}"#)]
    case "LIST_SUBSCRIPTIONS":
      let list = streams.map(JSONEscaping.quoted).joined(separator: ",")
      return [.text(#"{"result":[\#(list)],"id":\#(id)}"#)]
    case "SET_PROPERTY":
      guard let params, params.count == 2, params[0].stringValue == "combined" else {
        return fail(code: 0, "Unknown property", id: id)
      }
      guard let value = params[1].boolValue else {
        return fail(code: 1, "Invalid value type: expected Boolean", id: id)
      }
      combined = value
      return [.text(#"{"result":null,"id":\#(id)}"#)]
    case "GET_PROPERTY":
      guard let params, params.count == 1, params[0].stringValue == "combined" else {
        return fail(code: 0, "Unknown property", id: id)
      }
      return [.text(#"{"result":\#(combined),"id":\#(id)}"#)]
    default:
      return fail(
        code: 2,
        "Invalid request: unknown variant `\(method)`, expected one of `SUBSCRIBE`, `UNSUBSCRIBE`, "
          + "`LIST_SUBSCRIPTIONS`, `SET_PROPERTY`, `GET_PROPERTY`", id: id)
    }
  }

  private mutating func fail(code: Int, _ message: String, id: String) -> [EmulatorAction] {
    closed = true
    return [
      .text(Self.error(code: code, message, id: id)), .violation(.invalidRequest(message)),
      .close(CloseStatus(code: .policyViolation, reason: "")),
    ]
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body) else { return [.text(step.body)] }
      afterScriptedError = value["error"] != nil
      if afterScriptedError || value["result"] != nil { return [] }
      guard let (stream, data) = Self.trade(in: value) else { return [.text(step.body)] }
      return send(stream: stream, data: data.serialized)
    case .ping:
      afterScriptedError = false
      let payload = Array(step.body.utf8.prefix(125))
      outstanding.append((payload, now))
      return [.ping(payload)]
    case .close:
      if afterScriptedError { return [] }
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  private func send(stream: String, data: String) -> [EmulatorAction] {
    guard streams.contains(stream) else { return [] }
    return [.text(combined ? #"{"stream":\#(JSONEscaping.quoted(stream)),"data":\#(data)}"# : data)]
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    if let oldest = outstanding.first, oldest.sentAt + .seconds(fractional: rules.pongTimeout) <= now {
      closed = true
      return [.violation(.missedPong), .drop]
    }
    guard let due = nextPing, due <= now, let interval = rules.pingInterval else { return [] }
    nextPing = due + .seconds(fractional: max(interval, 0.001))
    // The payload, as Binance's, is a time in milliseconds.
    let payload = Array(String(1_789_404_780_000 + Int64(now.fractionalSeconds * 1000)).utf8)
    outstanding.append((payload, now))
    return [.ping(payload)]
  }

  var nextDeadline: Duration? {
    if closed { return nil }
    return earliest(nextPing, outstanding.first.map { $0.sentAt + .seconds(fractional: rules.pongTimeout) })
  }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    streams.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  var subscribed: [String] { streams }
  var lastPrices: [String: (price: String, time: Int64)] { lastTrades }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    return trades.flatMap { trade -> [EmulatorAction] in
      let symbol = String(trade.symbol.prefix { $0 != "@" }).uppercased()
      if trade.symbol.hasSuffix("@bookTicker") {
        return send(stream: trade.symbol, data: bookTicker(trade, symbol))
      }
      defer { nextTradeID += 1 }
      let price = SyntheticTrades.format(cents: trade.cents, places: 8)
      let quantity = SyntheticTrades.format(volume: trade.volume, places: 8)
      let data =
        #"{"e":"trade","E":\#(trade.time + 1),"s":"\#(symbol)","t":\#(nextTradeID),"p":"\#(price)","#
        + #""q":"\#(quantity)","T":\#(trade.time),"m":\#(!trade.up),"M":true}"#
      return send(stream: trade.symbol, data: data)
    }
  }

  /// The book ticker after `trade`: the update id counts with the trade ids.
  private mutating func bookTicker(_ trade: SyntheticTrade, _ symbol: String) -> String {
    defer { nextTradeID += 1 }
    let book = trade.book
    let bid = SyntheticTrades.format(cents: book.bidCents, places: 8)
    let ask = SyntheticTrades.format(cents: book.askCents, places: 8)
    let bidSize = SyntheticTrades.format(volume: book.bidSize, places: 8)
    let askSize = SyntheticTrades.format(volume: book.askSize, places: 8)
    return
      #"{"u":\#(nextTradeID),"s":"\#(symbol)","b":"\#(bid)","B":"\#(bidSize)","a":"\#(ask)","A":"\#(askSize)"}"#
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// A trade stream's market: `ethusdt@trade` trades ETH/USDT.
  func market(of symbol: String) -> Market? {
    Market.splittingRunTogether(String(symbol.prefix { $0 != "@" }).uppercased())
  }

  /// Any symbol's trade stream (`ethusdt@trade`) and book ticker (`ethusdt@bookTicker`); other
  /// streams carry neither.
  func walkStart(for symbol: String) -> WalkStart? {
    guard symbol.hasSuffix("@trade") || symbol.hasSuffix("@bookTicker"), BinanceStreams.isValid(symbol)
    else { return nil }
    return .dollars
  }
}

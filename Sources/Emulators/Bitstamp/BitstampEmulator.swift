import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer
import WebSocketWire

/// What Bitstamp's WebSocket API v2 does with a connection, as a pure state machine
/// (docs/protocols.md §8):
///
/// - Requests (`BitstampRequest`) name one channel each and are answered one by one:
///   `bts:subscription_succeeded` or `bts:unsubscription_succeeded` naming the channel. Any
///   readable channel of a public family is accepted, whether its market exists or not (Bitstamp
///   acknowledges an unknown market, which then stays silent); only `live_trades_` and
///   `order_book_` channels carry anything here. Text that is not JSON, JSON that is no request
///   and a channel name Bitstamp cannot read get a `bts:error` naming no channel; the connection
///   stays.
/// - `{"event":"bts:heartbeat"}` is answered with its `success`.
/// - A client frame over `maximumClientFrame` bytes is closed with 1009 "read limited at 513
///   bytes"; a subscription past `channelsPerConnection` channels is dropped without a word.
/// - A WebSocket ping every `pingInterval`; a ping no pong has echoed within `pongTimeout` gets the
///   connection dropped. Nothing else is asked of the client: its own messages keep nothing.
/// - The connection ends `maximumAge` after it opened (with 1001: how is not documented).
/// - Trades go out only for markets subscribed on `live_trades_`, and the synthetic stream's books
///   (`order_book_`: the top levels a side, whole, on every change) only for those subscribed
///   there, in `subscribed` as the channel's name (`order_book_btcusd`); the script's answers and
///   errors (replies to what its client said) are not replayed: this emulator makes its own.
///   Its other messages (a `bts:request_reconnect`) go out as they are.
struct BitstampEmulator: VenueEmulator {
  let rules: BitstampRules
  /// Every channel subscribed, in subscription order.
  private(set) var channels: [String] = []
  private(set) var requestCount = 0
  private var nextPing: Duration?
  /// Pings not yet answered: payload and when each went out, oldest first.
  private var outstanding: [(payload: [UInt8], sentAt: Duration)] = []
  private var pings = 0
  private var closed = false
  /// The latest trade per market (price as sent, time in ms): the script's, then the replay's
  /// and the synthetic stream's.
  private var scriptLatest: [String: (price: String, time: Int64)] = [:]
  private var latest: [String: (price: String, time: Int64)] = [:]
  /// Ids for the synthetic stream's trades and orders, going on from the script's.
  private var nextTradeID: Int64 = 1
  private var nextOrderID: Int64 = 1

  init(script: SessionScript, rules: BitstampRules) {
    self.rules = rules
    nextPing = rules.pingInterval.map { .seconds(fractional: max($0, 0.001)) }
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let (market, data) = Self.trade(in: step.body) else { continue }
      if let last = Self.priceAndTime(data) { scriptLatest[market] = last }
      if let id = data["id"]?.numberText.flatMap({ Int64($0) }) { nextTradeID = max(nextTradeID, id + 1) }
      for key in ["buy_order_id", "sell_order_id"] {
        if let id = data[key]?.numberText.flatMap({ Int64($0) }) { nextOrderID = max(nextOrderID, id + 1) }
      }
    }
  }

  /// The market and `data` of a `trade` message on a `live_trades_` channel; nil for anything
  /// else.
  static func trade(in text: String) -> (market: String, data: JSONValue)? {
    guard let value = try? JSONParser().parse(text), value["event"]?.stringValue == "trade",
      let channel = value["channel"]?.stringValue, let data = value["data"],
      let market = BitstampWire.market(inChannel: channel)
    else { return nil }
    return (market, data)
  }

  /// A trade's `price_str` and its time in milliseconds (from `microtimestamp`).
  static func priceAndTime(_ data: JSONValue) -> (price: String, time: Int64)? {
    guard let price = data["price_str"]?.stringValue,
      let micros = data["microtimestamp"]?.stringValue.flatMap({ Int64($0) })
    else { return nil }
    return (price, micros / 1000)
  }

  /// The markets subscribed on `live_trades_`, in subscription order.
  var markets: [String] { channels.compactMap { BitstampWire.market(inChannel: $0) } }

  /// The market of an `order_book_<market>` channel; nil for any other.
  static func bookMarket(_ channel: String) -> String? {
    BitstampWire.market(inChannel: channel, prefix: BitstampWire.bookPrefix)
  }

  // MARK: VenueEmulator

  /// Bitstamp serves one address for everything; any path is accepted.
  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch input {
    case .ping: return []
    case .pong(let payload):
      if let index = outstanding.firstIndex(where: { $0.payload == payload }) {
        outstanding.removeFirst(index + 1)
      }
      return []
    case .binary(let bytes): return request(String(decoding: bytes, as: UTF8.self), size: bytes.count)
    case .text(let text): return request(text, size: text.utf8.count)
    }
  }

  /// One client message of `size` bytes.
  private mutating func request(_ text: String, size: Int) -> [EmulatorAction] {
    guard size <= rules.maximumClientFrame else {
      closed = true
      return [
        .violation(.invalidRequest("a frame of \(size) bytes, over \(rules.maximumClientFrame)")),
        .close(
          CloseStatus(code: .messageTooBig, reason: "read limited at \(rules.maximumClientFrame + 1) bytes")),
      ]
    }
    switch BitstampRequest.parse(text) {
    case .failure(let refusal):
      if text.contains(text: "bts:subscribe") || text.contains(text: "bts:unsubscribe") { requestCount += 1 }
      return [.text(BitstampWire.error(refusal)), .violation(.invalidRequest(refusal.message))]
    case .success(.heartbeat):
      return [.text(BitstampWire.heartbeat)]
    case .success(.subscribe(let channel)):
      requestCount += 1
      if !channels.contains(channel) {
        guard channels.count < rules.channelsPerConnection else {
          closed = true
          return [.violation(.invalidRequest("more than \(rules.channelsPerConnection) channels")), .drop]
        }
        channels.append(channel)
      }
      return [.text(BitstampWire.answer("bts:subscription_succeeded", channel: channel))]
    case .success(.unsubscribe(let channel)):
      requestCount += 1
      channels.removeAll { $0 == channel }
      return [.text(BitstampWire.answer("bts:unsubscription_succeeded", channel: channel))]
    }
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body) else { return [.text(step.body)] }
      switch value["event"]?.stringValue {
      case "bts:subscription_succeeded", "bts:unsubscription_succeeded", "bts:error", "bts:heartbeat":
        // Answers to what the script's client said: this emulator makes its own.
        return []
      case "trade":
        guard let (market, data) = Self.trade(in: step.body) else { return [.text(step.body)] }
        if let last = Self.priceAndTime(data) { latest[market] = last }
        return markets.contains(market) ? [.text(step.body)] : []
      default:
        return [.text(step.body)]
      }
    case .ping:
      let payload = Array(step.body.utf8.prefix(125))
      outstanding.append((payload, now))
      return [.ping(payload)]
    case .close:
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    if let end = ageDeadline, end <= now {
      closed = true
      return [.close(CloseStatus(code: .goingAway, reason: "maximum connection age"))]
    }
    if let oldest = outstanding.first, oldest.sentAt + .seconds(fractional: rules.pongTimeout) <= now {
      closed = true
      return [.violation(.missedPong), .drop]
    }
    guard let due = nextPing, due <= now, let interval = rules.pingInterval else { return [] }
    nextPing = due + .seconds(fractional: max(interval, 0.001))
    pings += 1
    let payload = Array("\(pings)".utf8)
    outstanding.append((payload, now))
    return [.ping(payload)]
  }

  private var ageDeadline: Duration? { rules.maximumAge.map { .seconds(fractional: $0) } }

  var nextDeadline: Duration? {
    if closed { return nil }
    return earliest(
      ageDeadline, nextPing, outstanding.first.map { $0.sentAt + .seconds(fractional: rules.pongTimeout) })
  }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    subscribed.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  /// Markets subscribed on `live_trades_`, and `order_book_` channels by their name, in
  /// subscription order.
  var subscribed: [String] {
    channels.filter { BitstampWire.market(inChannel: $0) != nil || Self.bookMarket($0) != nil }.map {
      BitstampWire.market(inChannel: $0) ?? $0
    }
  }

  /// Each market's last trade, under its book's channel too: a book walks from where its
  /// market traded.
  var lastPrices: [String: (price: String, time: Int64)] {
    let trades = scriptLatest.merging(latest, uniquingKeysWith: { $1 })
    var out = trades
    for (market, last) in trades { out[BitstampWire.bookPrefix + market] = last }
    return out
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    let subscribed = subscribed
    return trades.compactMap { trade -> EmulatorAction? in
      guard subscribed.contains(trade.symbol) else { return nil }
      if let market = Self.bookMarket(trade.symbol) { return .text(book(trade, market: market)) }
      let price = SyntheticTrades.format(cents: trade.cents, places: 2)
      let amount = SyntheticTrades.format(volume: trade.volume, places: 8)
      // One order a side per trade: the taker's is the newer.
      let resting = nextOrderID
      let taker = nextOrderID + 1
      nextOrderID += 2
      defer { nextTradeID += 1 }
      latest[trade.symbol] = (price, trade.time)
      return .text(
        BitstampWire.trade(
          market: trade.symbol, id: nextTradeID, microseconds: trade.time * 1000,
          price: price, priceNumber: BitstampWire.number(price), amount: amount,
          amountNumber: BitstampWire.number(amount), buy: trade.up, buyOrder: trade.up ? taker : resting,
          sellOrder: trade.up ? resting : taker))
    }
  }

  /// Levels a side of a synthetic book (Bitstamp sends 100; a few show the shape).
  static let bookDepth = 5

  /// `market`'s book around `trade`: its top (`SyntheticTrade.book`), then levels a cent apart
  /// going out, sizes varying.
  private func book(_ trade: SyntheticTrade, market: String) -> String {
    let top = trade.book
    func side(_ cents: Int64, _ size: Int, step: Int64) -> [(price: String, amount: String)] {
      (0..<Int64(Self.bookDepth)).map { level in
        (
          SyntheticTrades.format(cents: max(1, cents + step * level), places: 2),
          SyntheticTrades.format(volume: 1 + (size + Int(level) * 7919) % 50_000, places: 8)
        )
      }
    }
    return BitstampWire.book(
      market: market, microseconds: trade.time * 1000, bids: side(top.bidCents, top.bidSize, step: -1),
      asks: side(top.askCents, top.askSize, step: 1))
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any market of Bitstamp's shape (`xlmeur`), and its book's channel (`order_book_xlmeur`).
  func walkStart(for symbol: String) -> WalkStart? {
    let market = Self.bookMarket(symbol) ?? symbol
    return BitstampProvider().canonicalSymbol(market) == .success(market) ? .dollars : nil
  }

  /// What an `order_book_` channel's market trades; nil for a market (the provider knows).
  func market(of symbol: String) -> Market? {
    Self.bookMarket(symbol).flatMap { BitstampProvider().market(of: $0) }
  }
}

import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer
import WebSocketWire

/// What Kraken's Spot WebSocket API v2 does with a connection, as a pure state machine
/// (docs/protocols.md §5):
///
/// - The upgrade: the feed is served at `/v2` (Kraken's `/` speaks v1, which is not emulated);
///   any other path is refused with 404.
/// - A status update (`{"channel":"status",…}`) as soon as the connection opens.
/// - Requests `{"method":…,"params":{…},"req_id":n}` (`KrakenRequest`). `subscribe` and
///   `unsubscribe` on the `ticker` channel are answered once **per symbol**, echoing `req_id`:
///   `success:true` with the symbol in `result`, or `success:false` naming it
///   (`Currency pair not supported X`, `Already subscribed`, `Subscription Not Found`); the
///   connection stays open. `"event_trigger":"bbo"` asks for a ticker on each change of the best
///   bid and ask instead of each trade: the synthetic tickers of such a pair then carry the
///   synthetic book's bid, ask and quantities. A subscription gets its snapshot (at once when a ticker of the pair
///   has gone by, else its next ticker is sent as the snapshot), then updates. `ping` is
///   answered by `pong`. Other methods, other channels and unreadable requests are refused.
/// - Pairs are upper-case `BASE/QUOTE` pairs the venue lists: those the script trades and
///   `knownPairs`; anything else is not supported. With `acceptAnySymbol` (the demo) every pair
///   of that shape is.
/// - Tickers go out only for subscribed pairs. While anything is subscribed, a heartbeat goes out
///   every `heartbeatInterval` in which no ticker did.
/// - More than `messagesPerWindow` requests in `rateWindow` (pings included; WebSocket control
///   frames are not requests) are refused with `Exceeded msg rate`, the connection staying open.
/// - A connection whose client sent no request for `idleTimeout` is closed (with 1001: how
///   Kraken closes it is not documented).
/// - Scripted answers, statuses and heartbeats (replies to what the recording's client said, and
///   the venue's own duties) are not replayed: this emulator makes its own.
struct KrakenEmulator: VenueEmulator {
  let rules: KrakenRules
  /// The subscribed pairs, in subscription order.
  private(set) var pairs: [String] = []
  /// The pairs subscribed with `"event_trigger":"bbo"`.
  private(set) var bestBidOfferPairs: Set<String> = []
  private(set) var requestCount = 0
  private var rate: RateWindow
  private var statusSent = false
  private var lastRequest: Duration = .zero
  /// When the next heartbeat may be due (nil while nothing is subscribed), and whether a ticker
  /// went out since the last one.
  private var nextHeartbeat: Duration?
  private var tickerSent = false
  private var closed = false
  private let known: Set<String>
  private let acceptAnySymbol: Bool
  /// The latest ticker entry per pair, from the replay and the synthetic stream.
  private var latest: [String: JSONObject] = [:]
  /// The script's last ticker entry per pair (where the synthetic stream starts).
  private var scriptLatest: [String: JSONObject] = [:]
  /// Pairs whose next ticker is their snapshot.
  private var snapshotDue: Set<String> = []
  /// The wall-clock time, in microseconds, of the connection's start (answers' `time_in`).
  private let epoch: Int64

  /// Pairs accepted besides those the script trades.
  static let knownPairs: Set<String> = [
    "BTC/USD", "ETH/USD", "SOL/USD", "XRP/USD", "DOGE/USD", "ADA/USD", "LTC/USD", "DOT/USD", "LINK/USD",
    "BCH/USD", "USDT/USD", "USDC/USD", "BTC/EUR", "ETH/EUR", "BTC/GBP", "ETH/BTC", "BTC/USDT", "ETH/USDT",
  ]

  init(script: SessionScript, rules: KrakenRules, acceptAnySymbol: Bool = false) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    rate = RateWindow(limit: rules.messagesPerWindow, window: .seconds(fractional: rules.rateWindow))
    var known = Self.knownPairs
    var first: Int64?
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      for entry in Self.tickerEntries(try? JSONParser().parse(step.body)) {
        guard let pair = entry["symbol"]?.stringValue else { continue }
        known.insert(pair)
        scriptLatest[pair] = entry
        if first == nil, let ms = entry["timestamp"]?.stringValue.flatMap(RFC3339.milliseconds) { first = ms }
      }
    }
    self.known = known
    // A second before the script's first ticker (or a fixed moment without one).
    epoch = ((first ?? 1_789_999_332_408) - 1000) * 1000
  }

  /// The entries of a ticker message; empty for anything else.
  static func tickerEntries(_ value: JSONValue?) -> [JSONObject] {
    guard let value, value["channel"]?.stringValue == "ticker" else { return [] }
    return value["data"]?.arrayValue?.compactMap(\.objectValue) ?? []
  }

  /// Whether `pair` is a pair of Kraken's shape: upper-case `BASE/QUOTE` in letters and digits.
  static func isWellFormed(_ pair: String) -> Bool {
    KrakenProvider().canonicalSymbol(pair) == .success(pair)
  }

  private func microseconds(_ now: Duration) -> Int64 {
    epoch + Int64((now.fractionalSeconds * 1e6).rounded())
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission {
    let path = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard path == "/v2" else {
      return .refuse(status: 404, reason: "Not Found", violation: .refusedHandshake("unknown path \(path)"))
    }
    return .accept
  }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    let text: String
    switch input {
    case .ping, .pong: return []
    case .text(let t): text = t
    case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
    }
    lastRequest = now
    let at = microseconds(now)
    let parsed = KrakenRequest.parse(text)
    guard rate.admit(at: now) else {
      let (method, id): (String?, String?) =
        switch parsed {
        case .success(let request): (request.method, request.requestID)
        case .failure(let failure): (failure.method, failure.requestID)
        }
      return [
        .text(KrakenWire.refused("Exceeded msg rate", method: method, symbol: nil, requestID: id, at: at)),
        .violation(.tooManyMessages),
      ]
    }
    switch parsed {
    case .failure(let failure):
      if failure.method == "subscribe" || failure.method == "unsubscribe" { requestCount += 1 }
      return [
        .text(
          KrakenWire.refused(
            failure.text, method: failure.method, symbol: nil, requestID: failure.requestID, at: at)),
        .violation(.invalidRequest(failure.text)),
      ]
    case .success(let request) where request.method == "ping":
      return [.text(KrakenWire.pong(requestID: request.requestID, at: at))]
    case .success(let request):
      requestCount += 1
      guard request.channel == "ticker" else {
        let why = "Channel \(request.channel) is not emulated"
        return [
          .text(
            KrakenWire.refused(why, method: request.method, symbol: nil, requestID: request.requestID, at: at)
          ),
          .violation(.invalidRequest(why)),
        ]
      }
      return request.symbols.flatMap { symbol in
        request.method == "subscribe"
          ? subscribe(symbol, request, at: now) : unsubscribe(symbol, request, at: now)
      }
    }
  }

  /// One symbol of a `subscribe`: its answer, then its snapshot when one can go at once.
  private mutating func subscribe(_ pair: String, _ request: KrakenRequest, at now: Duration)
    -> [EmulatorAction]
  {
    let at = microseconds(now)
    let refusal: String? =
      !isValid(pair)
      ? "Currency pair not supported \(pair)" : pairs.contains(pair) ? "Already subscribed" : nil
    if let refusal {
      return [
        .text(
          KrakenWire.refused(refusal, method: "subscribe", symbol: pair, requestID: request.requestID, at: at)
        ),
        .violation(.invalidRequest(refusal)),
      ]
    }
    if pairs.isEmpty, let interval = rules.heartbeatInterval {
      nextHeartbeat = now + .seconds(fractional: max(interval, 0.001))
    }
    pairs.append(pair)
    if request.onBestBidOffer { bestBidOfferPairs.insert(pair) }
    var actions: [EmulatorAction] = [
      .text(
        KrakenWire.accepted(
          "subscribe", symbol: pair, snapshot: request.snapshot, requestID: request.requestID, at: at))
    ]
    snapshotDue.remove(pair)
    if request.snapshot {
      if let entry = latest[pair] {
        tickerSent = true
        actions.append(.text(KrakenWire.ticker(entry, snapshot: true)))
      } else {
        snapshotDue.insert(pair)
      }
    }
    return actions
  }

  /// One symbol of an `unsubscribe`.
  private mutating func unsubscribe(_ pair: String, _ request: KrakenRequest, at now: Duration)
    -> [EmulatorAction]
  {
    let at = microseconds(now)
    guard let index = pairs.firstIndex(of: pair) else {
      let refusal = "Subscription Not Found"
      return [
        .text(
          KrakenWire.refused(
            refusal, method: "unsubscribe", symbol: pair, requestID: request.requestID, at: at)),
        .violation(.invalidRequest(refusal)),
      ]
    }
    pairs.remove(at: index)
    bestBidOfferPairs.remove(pair)
    snapshotDue.remove(pair)
    if pairs.isEmpty { nextHeartbeat = nil }
    return [
      .text(
        KrakenWire.accepted("unsubscribe", symbol: pair, snapshot: nil, requestID: request.requestID, at: at))
    ]
  }

  private func isValid(_ pair: String) -> Bool {
    known.contains(pair) || (acceptAnySymbol && Self.isWellFormed(pair))
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body), case .object(let object) = value else {
        return [.text(step.body)]
      }
      // Answers to the recording's client, and the venue's own status and heartbeats: made here.
      if object["method"] != nil || object["error"] != nil { return [] }
      switch object["channel"]?.stringValue {
      case "status", "heartbeat": return []
      case "ticker": return Self.tickerEntries(value).flatMap { send($0) }
      default: return [.text(step.body)]
      }
    case .ping:
      return [.ping(Array(step.body.utf8.prefix(125)))]
    case .close:
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  /// Remembers `entry` and sends it if its pair is subscribed: as the pair's snapshot when one is
  /// due, else as an update.
  private mutating func send(_ entry: JSONObject) -> [EmulatorAction] {
    guard let pair = entry["symbol"]?.stringValue else { return [] }
    latest[pair] = entry
    guard pairs.contains(pair) else { return [] }
    tickerSent = true
    return [.text(KrakenWire.ticker(entry, snapshot: snapshotDue.remove(pair) != nil))]
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    var actions: [EmulatorAction] = []
    if !statusSent {
      statusSent = true
      actions.append(.text(KrakenWire.status))
    }
    if let deadline = idleDeadline, deadline <= now {
      closed = true
      return actions + [.violation(.idle), .close(CloseStatus(code: .goingAway, reason: "idle"))]
    }
    if let due = nextHeartbeat, due <= now, let interval = rules.heartbeatInterval {
      nextHeartbeat = now + .seconds(fractional: max(interval, 0.001))
      if !tickerSent { actions.append(.text(KrakenWire.heartbeat)) }
      tickerSent = false
    }
    return actions
  }

  private var idleDeadline: Duration? {
    rules.idleTimeout.map { lastRequest + .seconds(fractional: $0) }
  }

  var nextDeadline: Duration? {
    if closed { return nil }
    return earliest(statusSent ? nil : .zero, idleDeadline, nextHeartbeat)
  }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    pairs.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  var subscribed: [String] { pairs }

  var lastPrices: [String: (price: String, time: Int64)] {
    var prices: [String: (price: String, time: Int64)] = [:]
    for (pair, entry) in scriptLatest.merging(latest, uniquingKeysWith: { $1 }) {
      guard let price = entry["last"]?.numberText,
        let time = entry["timestamp"]?.stringValue.flatMap(RFC3339.milliseconds)
      else { continue }
      prices[pair] = (price, time)
    }
    return prices
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    return trades.flatMap { trade -> [EmulatorAction] in
      guard pairs.contains(trade.symbol) else { return [] }
      let last =
        latest[trade.symbol] ?? scriptLatest[trade.symbol]
        ?? Self.firstTicker(of: trade.symbol, price: KrakenWire.number(cents: trade.cents))
      var entry = Self.ticker(after: last, trade)
      if bestBidOfferPairs.contains(trade.symbol) { Self.setBook(&entry, trade.book) }
      return send(entry)
    }
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any pair of Kraken's shape (`XLM/EUR`).
  func walkStart(for symbol: String) -> WalkStart? { Self.isWellFormed(symbol) ? .dollars : nil }

  /// The ticker of a pair the script never traded, before its first synthetic trade: Kraken's
  /// fields in its order, the walk's start `price` as the day's prices, no volume and no change.
  static func firstTicker(of pair: String, price: String) -> JSONObject {
    let start = JSONValue.number(price)
    let zero = JSONValue.number("0.0")
    return JSONObject([
      ("symbol", .string(pair)), ("bid", start), ("bid_qty", zero), ("ask", start), ("ask_qty", zero),
      ("last", start), ("volume", zero), ("vwap", start), ("low", start), ("high", start), ("change", zero),
      ("change_pct", zero), ("timestamp", .string("")),
    ])
  }

  /// The best bid and ask of `entry` set to `book`'s: prices as Kraken writes its numbers,
  /// quantities with its eight decimals.
  static func setBook(_ entry: inout JSONObject, _ book: SyntheticBook) {
    entry["bid"] = .number(KrakenWire.number(cents: book.bidCents))
    entry["bid_qty"] = .number(SyntheticTrades.format(volume: book.bidSize, places: 8))
    entry["ask"] = .number(KrakenWire.number(cents: book.askCents))
    entry["ask_qty"] = .number(SyntheticTrades.format(volume: book.askSize, places: 8))
  }

  /// `last` moved on by `trade`: the trade's price as `last`, the book a tick (0.1) away on the
  /// side the trade did not take, the day's low and high stretched to it, and its time.
  static func ticker(after last: JSONObject, _ trade: SyntheticTrade) -> JSONObject {
    var entry = last
    let price = KrakenWire.number(cents: trade.cents)
    entry["last"] = .number(price)
    entry["bid"] = .number(trade.up ? KrakenWire.number(cents: max(1, trade.cents - 10)) : price)
    entry["ask"] = .number(trade.up ? price : KrakenWire.number(cents: trade.cents + 10))
    if let low = last["low"]?.numberText.flatMap(SyntheticTrades.parseCents), trade.cents < low {
      entry["low"] = .number(price)
    }
    if let high = last["high"]?.numberText.flatMap(SyntheticTrades.parseCents), trade.cents > high {
      entry["high"] = .number(price)
    }
    entry["timestamp"] = .string(RFC3339.format(microseconds: trade.time * 1000 + Int64(trade.volume % 1000)))
    return entry
  }
}

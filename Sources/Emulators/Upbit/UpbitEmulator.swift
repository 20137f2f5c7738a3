import JSON
import Recording
import Venues
import WebSocketServer
import WebSocketWire

/// What Upbit does with a connection, as a pure state machine (docs/protocols.md §2):
///
/// - The upgrade: a request with an `Origin` header is refused with 429 (`UpbitRules.refuseOrigin`).
/// - Requests: one JSON array in a text frame (`UpbitRequest`). Each valid one **replaces** the
///   whole subscription: codes it leaves out stop flowing. No acknowledgement. Unknown and
///   lower-case codes are accepted and get nothing. A binary request, or any invalid one, gets
///   `{"error":{"name":…,"message":…}}` (a binary frame) and, `errorCloseDelay` later, a close
///   with 1000; nothing else is sent or heard in between.
/// - Tickers go out as **binary** frames, in the request's format (SIMPLE or DEFAULT keys).
///   After each request, every code in it gets a `SNAPSHOT` first (at once from the latest
///   ticker already replayed, else its next one), then `REALTIME` (`isOnlySnapshot` and
///   `isOnlyRealtime` are honoured).
/// - The text `PING` is answered by `{"status":"UP"}` in a binary frame (as recorded), which
///   then repeats every `statusInterval`.
/// - More than `messagesPerWindow` client messages in `rateWindow`, or `requestsPerMinute` in a
///   minute (`PING` counts), is closed with 1008. Upbit documents the limits but not what
///   happens in a connection (its 429 and 418 are HTTP answers); 1008, policy violation, is the
///   close code for exactly this and what Binance sends for the same offence.
/// - The server never pings. Scripted acknowledgements, statuses and errors (replies to what
///   the recording's client said) are not replayed: this emulator makes its own.
struct UpbitEmulator: VenueEmulator {
  let rules: UpbitRules
  /// The codes, and the latest ticker per code (SIMPLE keys).
  private var subscription = SnapshotSubscription()
  var codes: [String] { subscription.codes }
  /// The codes subscribed to the `orderbook` type, and those whose next book is their snapshot
  /// or that get books as they change.
  private(set) var orderbookCodes: [String] = []
  private var bookSnapshotDue: Set<String> = []
  private var bookRealtime: Set<String> = []
  private(set) var format: UpbitTicker.Format = .default
  private(set) var requestCount = 0
  private var perSecond: RateWindow
  private var perMinute: RateWindow
  private var nextStatus: Duration?
  private var pendingClose: (at: Duration, status: CloseStatus)?
  private var closed = false
  /// Whether the last scripted message was an error (its close is a reply too).
  private var afterScriptedError = false
  /// The last ticker the script has per code (where the synthetic stream starts).
  private var scriptLatest: [String: JSONObject] = [:]
  /// The script's first ticker: the pattern of the tickers of a code it never traded.
  private var scriptTemplate: JSONObject?

  init(script: SessionScript, rules: UpbitRules) {
    self.rules = rules
    perSecond = RateWindow(limit: rules.messagesPerWindow, window: .seconds(fractional: rules.rateWindow))
    perMinute = RateWindow(limit: rules.requestsPerMinute, window: .seconds(60))
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      if let value = try? JSONParser().parse(step.body), let ticker = UpbitTicker.simple(value),
        let code = ticker["cd"]?.stringValue
      {
        scriptLatest[code] = ticker
        if scriptTemplate == nil { scriptTemplate = ticker }
      }
    }
  }

  static func error(name: String, message: String) -> String {
    #"{"error":{"message":\#(JSONEscaping.quoted(message)),"name":\#(JSONEscaping.quoted(name))}}"#
  }

  static let status = #"{"status":"UP"}"#

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission {
    if rules.refuseOrigin, request.head.value(of: "Origin") != nil {
      return .refuse(
        status: 429, reason: "Too Many Requests", violation: .refusedHandshake("Origin header"))
    }
    return .accept
  }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed || pendingClose != nil { return [] }
    let text: String?
    switch input {
    case .text(let t): text = t
    case .binary: text = nil
    case .ping, .pong: return []
    }
    let withinSecond = perSecond.admit(at: now)
    let withinMinute = perMinute.admit(at: now)
    guard withinSecond, withinMinute else {
      closed = true
      return [
        .violation(.tooManyMessages),
        .close(CloseStatus(code: .policyViolation, reason: "too many requests")),
      ]
    }
    if text == "PING" {
      if let interval = rules.statusInterval { nextStatus = now + .seconds(fractional: interval) }
      return [.binary(Self.status)]
    }
    requestCount += 1
    switch text.map(UpbitRequest.parse) ?? .failure(.wrongFormat) {
    case .failure(let failure):
      pendingClose = (now + .seconds(fractional: rules.errorCloseDelay), CloseStatus(code: .normalClosure))
      return [
        .binary(Self.error(name: failure.name, message: failure.message)),
        .violation(.invalidRequest(failure.name)),
      ]
    case .success(let request):
      return apply(request)
    }
  }

  /// Replaces the subscription; returns the snapshots that can go out at once.
  private mutating func apply(_ request: UpbitRequest) -> [EmulatorAction] {
    format = request.format
    orderbookCodes = request.orderbookCodes
    let books = Set(request.orderbookCodes)
    bookSnapshotDue = request.orderbookOnlyRealtime ? [] : books
    bookRealtime = request.orderbookOnlySnapshot ? [] : books
    let all = Set(request.tickerCodes)
    return subscription.replace(
      codes: request.tickerCodes, snapshot: request.onlyRealtime ? [] : all,
      realtime: request.onlySnapshot ? [] : all
    ).map { .binary(UpbitTicker.render($0, format: format, streamType: "SNAPSHOT")) }
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed || pendingClose != nil { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body) else { return [.binary(step.body)] }
      afterScriptedError = value["error"] != nil
      if afterScriptedError || value["status"] != nil { return [] }
      guard let ticker = UpbitTicker.simple(value) else { return [] }
      return send(ticker)
    case .ping:
      afterScriptedError = false
      return [.ping(Array(step.body.utf8.prefix(125)))]
    case .close:
      if afterScriptedError { return [] }
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  /// Remembers `ticker` and sends it if its code is subscribed: its snapshot when one is due,
  /// else a realtime update (unless only snapshots were asked for); then the book around it, if
  /// the code's book is subscribed.
  private mutating func send(_ ticker: JSONObject) -> [EmulatorAction] {
    guard let code = ticker["cd"]?.stringValue else { return [] }
    var actions: [EmulatorAction] = []
    if let streamType = subscription.receive(ticker, code: code) {
      actions.append(.binary(UpbitTicker.render(ticker, format: format, streamType: streamType)))
    }
    if let book = orderbook(around: ticker, code: code) { actions.append(.binary(book)) }
    return actions
  }

  /// The book of `code` around `ticker`'s trade, when the code's book is subscribed and one is due.
  private mutating func orderbook(around ticker: JSONObject, code: String) -> String? {
    guard orderbookCodes.contains(code),
      let cents = ticker["tp"]?.numberText.flatMap(UpbitTicker.plainDecimal).flatMap(
        SyntheticTrades.parseCents),
      let time = ticker["ttms"]?.numberText.flatMap({ Int64($0) })
    else { return nil }
    let streamType: String
    if bookSnapshotDue.remove(code) != nil {
      streamType = "SNAPSHOT"
    } else if bookRealtime.contains(code) {
      streamType = "REALTIME"
    } else {
      return nil
    }
    let volume = ticker["tv"]?.numberText.flatMap(UpbitTicker.plainDecimal).flatMap(
      SyntheticTrades.parseVolume)
    let trade = SyntheticTrade(symbol: code, cents: cents, time: time, volume: volume ?? 100, up: true)
    return UpbitOrderbookWire.render(
      code: code, book: trade.book, time: time + 30, simple: format == .simple, streamType: streamType)
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    if let pending = pendingClose, pending.at <= now {
      closed = true
      return [.close(pending.status)]
    }
    if pendingClose == nil, let due = nextStatus, due <= now, let interval = rules.statusInterval {
      nextStatus = due + .seconds(fractional: max(interval, 0.001))
      return [.binary(Self.status)]
    }
    return []
  }

  var nextDeadline: Duration? {
    if closed { return nil }
    if let pendingClose { return pendingClose.at }
    return nextStatus
  }

  var isClosing: Bool { closed || pendingClose != nil }

  func isReady(awaiting: Int) -> Bool {
    requestCount >= max(1, awaiting) || subscribed.count >= max(1, awaiting)
  }

  /// Ticker codes, then book codes not among them.
  var subscribed: [String] { codes + orderbookCodes.filter { !codes.contains($0) } }

  var lastPrices: [String: (price: String, time: Int64)] {
    var prices: [String: (price: String, time: Int64)] = [:]
    for (code, ticker) in scriptLatest.merging(subscription.latest, uniquingKeysWith: { $1 }) {
      guard let price = ticker["tp"]?.numberText.flatMap(UpbitTicker.plainDecimal),
        let time = ticker["ttms"]?.numberText.flatMap({ Int64($0) })
      else { continue }
      prices[code] = (price, time)
    }
    return prices
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed || pendingClose != nil { return [] }
    return trades.flatMap { trade -> [EmulatorAction] in
      let last =
        subscription.latest[trade.symbol] ?? scriptLatest[trade.symbol]
        ?? Self.firstTicker(of: trade.symbol, cents: trade.cents, like: scriptTemplate)
      return send(Self.ticker(after: last, trade))
    }
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any code of Upbit's shape (`KRW-ETH`); a lower-case one gets nothing, as on the venue.
  func walkStart(for symbol: String) -> WalkStart? {
    guard ProductCode.isWellFormed(symbol) else { return nil }
    return symbol == "KRW-USDT" ? .usdtInWon : .won
  }

  /// The ticker a code the script never traded has before its first synthetic trade: the fields
  /// of `template` (the script's first ticker; a minimal ticker without one) with the code, and
  /// the walk's start price (in hundredths of a won) as the day's open, high, low and previous
  /// close and the 52-week high and low.
  static func firstTicker(of code: String, cents: Int64, like template: JSONObject?) -> JSONObject {
    var ticker = template ?? JSONObject([("ty", .string("ticker"))])
    ticker["cd"] = .string(code)
    let won = JSONValue.number(UpbitTicker.javaDouble(max(1, cents / 100)))
    for key in ["op", "hp", "lp", "pcp", "h52wp", "l52wp"] { ticker[key] = won }
    return ticker
  }

  /// `last` moved on by `trade`: its price in whole won (sometimes in Java's exponent form, as
  /// Upbit writes it), the change against the previous close, volume, side and times.
  static func ticker(after last: JSONObject, _ trade: SyntheticTrade) -> JSONObject {
    var ticker = last
    let won = trade.cents / 100
    ticker["tp"] = .number(trade.volume % 2 == 0 ? UpbitTicker.javaDouble(won) : "\(won).0")
    if let previous = last["pcp"]?.numberText.flatMap(UpbitTicker.plainDecimal).flatMap({ Int64($0) }),
      previous > 0
    {
      let change = won - previous
      let rate = (Double(change) / Double(previous) * 1e10).rounded() / 1e10
      ticker["c"] = .string(change > 0 ? "RISE" : change < 0 ? "FALL" : "EVEN")
      ticker["cp"] = .number("\(abs(change)).0")
      ticker["scp"] = .number("\(change).0")
      ticker["cr"] = .number("\(abs(rate))")
      ticker["scr"] = .number("\(rate)")
    }
    ticker["tv"] = .number(SyntheticTrades.format(volume: trade.volume, places: 5))
    ticker["ab"] = .string(trade.up ? "BID" : "ASK")
    ticker["ttms"] = .number(String(trade.time))
    ticker["tms"] = .number(String(trade.time + 30))
    return ticker
  }
}

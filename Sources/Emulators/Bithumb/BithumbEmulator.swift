import JSON
import Recording
import Venues
import WebSocketServer
import WebSocketWire

/// What Bithumb's public feed does with a connection, as a pure state machine
/// (docs/protocols.md §12):
///
/// - Requests: one JSON array in a text frame (`BithumbRequest`). Each valid one **replaces**
///   the whole subscription: codes it leaves out stop flowing. No acknowledgement. Codes the
///   venue does not list are accepted and get nothing. A binary request, or any invalid one, gets
///   `{"error":{"name":…,"message":…}}` (a binary frame) and, `errorCloseDelay` later, a close
///   with 1000; nothing else is sent or heard in between.
/// - Trades go out as **binary** frames, in the request's format. After each request, every code
///   asked for without `isOnlyRealtime` gets a `SNAPSHOT` first (at once from the latest trade
///   already replayed, else its next one); codes asked for without `isOnlySnapshot` then get
///   their trades as `REALTIME`.
/// - Order books (`"type":"orderbook"`) go out as binary frames too, in the request's format
///   (`UpbitOrderbookWire`, plain numbers): the whole book around each trade of the code (scripted
///   or synthetic), `SNAPSHOT` first after each request (unless `isOnlyRealtime`), then
///   `REALTIME` (unless `isOnlySnapshot`).
/// - The text `PING` is answered by `{"status":"UP"}` in a binary frame, which then repeats
///   every `statusInterval`.
/// - A connection whose client sent nothing (no message, no WebSocket ping) for `idleTimeout` is
///   closed with 1001 (the code is not documented; 1000 would tell a client not to come back).
/// - The server never pings. Scripted statuses and errors (replies to what the recording's
///   client said) are not replayed: this emulator makes its own.
///
/// The connection rate per address (`connectionsPerSecond`) is the server's to enforce
/// (`BithumbProvider.connectionLimit`): one emulator sees one connection.
struct BithumbEmulator: VenueEmulator {
  let rules: BithumbRules
  /// The codes, in request order, and the latest trade per code (DEFAULT keys).
  private var subscription = SnapshotSubscription()
  var codes: [String] { subscription.codes }
  /// The codes subscribed to the `orderbook` type, those whose next book is their snapshot, and
  /// those that get books as they change.
  private(set) var orderbookCodes: [String] = []
  private var bookSnapshotDue: Set<String> = []
  private var bookRealtime: Set<String> = []
  private(set) var format: BithumbWire.Format = .default
  private(set) var requestCount = 0
  /// The last trade the script has per code (where the synthetic stream starts).
  private var scriptLatest: [String: JSONObject] = [:]
  /// The script's first trade: the pattern of the trades of a code it never traded.
  private var scriptTemplate: JSONObject?
  /// When the client last sent anything.
  private var lastHeard: Duration = .zero
  private var nextStatus: Duration?
  private var pendingClose: (at: Duration, status: CloseStatus)?
  private var closed = false
  /// Whether the last scripted message was an error (its close is a reply too).
  private var afterScriptedError = false

  init(script: SessionScript, rules: BithumbRules) {
    self.rules = rules
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body), let trade = BithumbWire.trade(value),
        let code = trade["code"]?.stringValue
      else { continue }
      scriptLatest[code] = trade
      if scriptTemplate == nil { scriptTemplate = trade }
    }
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed || pendingClose != nil { return [] }
    lastHeard = now
    let text: String?
    switch input {
    case .text(let t): text = t
    case .binary: text = nil
    case .ping, .pong: return []
    }
    if text == "PING" {
      if let interval = rules.statusInterval { nextStatus = now + .seconds(fractional: interval) }
      return [.binary(BithumbWire.status)]
    }
    requestCount += 1
    switch text.map(BithumbRequest.parse) ?? .failure(.wrongFormat) {
    case .failure(let failure):
      pendingClose = (now + .seconds(fractional: rules.errorCloseDelay), CloseStatus(code: .normalClosure))
      return [.binary(BithumbWire.error(failure)), .violation(.invalidRequest(failure.name))]
    case .success(let request):
      return apply(request)
    }
  }

  /// Replaces the subscription; returns the snapshots that can go out at once.
  private mutating func apply(_ request: BithumbRequest) -> [EmulatorAction] {
    format = request.format
    orderbookCodes = request.orderbookCodes
    bookSnapshotDue = request.bookSnapshotCodes
    bookRealtime = request.bookRealtimeCodes
    return subscription.replace(
      codes: request.tradeCodes, snapshot: request.snapshotCodes, realtime: request.realtimeCodes
    ).map { .binary(BithumbWire.render($0, format: format, streamType: "SNAPSHOT")) }
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed || pendingClose != nil { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body) else { return [.binary(step.body)] }
      afterScriptedError = value["error"] != nil
      if afterScriptedError || value["status"] != nil { return [] }
      guard let trade = BithumbWire.trade(value) else { return [] }
      return send(trade)
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

  /// Remembers `trade` and sends it if its code is subscribed: its snapshot when one is due,
  /// else as it happens (when asked for).
  private mutating func send(_ trade: JSONObject) -> [EmulatorAction] {
    guard let code = trade["code"]?.stringValue else { return [] }
    var actions: [EmulatorAction] = []
    if let streamType = subscription.receive(trade, code: code) {
      actions.append(.binary(BithumbWire.render(trade, format: format, streamType: streamType)))
    }
    if let book = orderbook(around: trade, code: code) { actions.append(.binary(book)) }
    return actions
  }

  /// The book of `code` around `trade`, when the code's book is subscribed and one is due.
  private mutating func orderbook(around trade: JSONObject, code: String) -> String? {
    guard orderbookCodes.contains(code),
      let cents = BithumbWire.plainDecimal(trade["trade_price"]).flatMap(SyntheticTrades.parseCents),
      let time = BithumbWire.milliseconds(trade["trade_timestamp"])
    else { return nil }
    let streamType: String
    if bookSnapshotDue.remove(code) != nil {
      streamType = "SNAPSHOT"
    } else if bookRealtime.contains(code) {
      streamType = "REALTIME"
    } else {
      return nil
    }
    let volume = BithumbWire.plainDecimal(trade["trade_volume"]).flatMap(SyntheticTrades.parseVolume)
    let synthetic = SyntheticTrade(symbol: code, cents: cents, time: time, volume: volume ?? 100, up: true)
    return UpbitOrderbookWire.render(
      code: code, book: synthetic.book, time: time + 30, simple: format == .simple, streamType: streamType,
      javaNumbers: false)
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    if let pending = pendingClose {
      guard pending.at <= now else { return [] }
      closed = true
      return [.close(pending.status)]
    }
    if let deadline = idleDeadline, deadline <= now {
      closed = true
      return [.violation(.idle), .close(CloseStatus(code: .goingAway, reason: "Idle Timeout"))]
    }
    if let due = nextStatus, due <= now, let interval = rules.statusInterval {
      nextStatus = due + .seconds(fractional: max(interval, 0.001))
      return [.binary(BithumbWire.status)]
    }
    return []
  }

  private var idleDeadline: Duration? {
    rules.idleTimeout.map { lastHeard + .seconds(fractional: $0) }
  }

  var nextDeadline: Duration? {
    if closed { return nil }
    if let pendingClose { return pendingClose.at }
    return earliest(idleDeadline, nextStatus)
  }

  var isClosing: Bool { closed || pendingClose != nil }

  func isReady(awaiting: Int) -> Bool {
    requestCount >= max(1, awaiting) || subscribed.count >= max(1, awaiting)
  }

  /// Trade codes, then book codes not among them.
  var subscribed: [String] { codes + orderbookCodes.filter { !codes.contains($0) } }

  var lastPrices: [String: (price: String, time: Int64)] {
    var prices: [String: (price: String, time: Int64)] = [:]
    for (code, trade) in scriptLatest.merging(subscription.latest, uniquingKeysWith: { $1 }) {
      guard let price = BithumbWire.plainDecimal(trade["trade_price"]),
        let time = BithumbWire.milliseconds(trade["trade_timestamp"])
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
        ?? BithumbWire.firstTrade(
          of: trade.symbol, price: BithumbWire.won(trade.cents), like: scriptTemplate)
      return send(BithumbWire.trade(after: last, trade))
    }
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any code of the venue's shape (`KRW-XRP`); a lower-case one gets nothing, as on the venue.
  func walkStart(for symbol: String) -> WalkStart? {
    guard ProductCode.isWellFormed(symbol) else { return nil }
    return symbol == "KRW-USDT" ? .usdtInWon : .won
  }
}

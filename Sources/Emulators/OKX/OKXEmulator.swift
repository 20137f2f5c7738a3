import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer
import WebSocketWire

/// What OKX's v5 public feed does with a connection, as a pure state machine (docs/protocols.md §6):
///
/// - Requests `{"id":…,"op":"subscribe"|"unsubscribe","args":[{"channel":"tickers","instId":…}]}`
///   are answered per item of `args`, each answer carrying the request's `id`:
///   `{"event":"subscribe","arg":{…}}` (or `unsubscribe`), or `{"event":"error","code":…}` for an
///   item refused (60018 for an instrument OKX does not list, or another channel than
///   `tickers` and `bbo-tbt`, the ones emulated); the other items of the same request still count. A
///   message that is no request gets a 60012 error, an unknown `op` 60019; the connection stays.
/// - Instruments are upper-case `BASE-QUOTE` spot pairs: those the script pushes and a built-in
///   list of common ones (`listedInstruments`); with `acceptAnySymbol` (the demo) any of that shape.
/// - The text `ping` is answered with the text `pong`.
/// - A connection without a subscription `quietTimeout` after the upgrade, or one the venue has
///   pushed nothing to for `quietTimeout` after that, is closed with 4004 "No data received in
///   30s". Client messages do not count, WebSocket ping frames neither: what keeps a quiet
///   connection is the `pong` its `ping` gets.
/// - More than `requestsPerHour` subscribe, unsubscribe and login requests in an hour (sliding)
///   are answered with 60014 and change nothing.
/// - Tickers go out only for instruments subscribed on `tickers`, and `bbo-tbt` pushes (the
///   synthetic book around each synthetic trade, one level a side) only for those subscribed on
///   `bbo-tbt`; the script's answers and errors (replies to
///   what its client said) are not replayed: this emulator makes its own.
///
/// The connection rate per address (`connectionsPerSecond`) is the server's to enforce
/// (`OKXVenue.connectionLimit`): one emulator sees one connection.
struct OKXEmulator: VenueEmulator {
  let rules: OKXRules
  /// Instruments subscribed on `tickers`, in subscription order.
  private(set) var instruments: [String] = []
  /// Instruments subscribed on `bbo-tbt`, in subscription order.
  private(set) var bookInstruments: [String] = []
  /// The next `bbo-tbt` push's `seqId`.
  private var bookSequence: Int64 = 1
  private(set) var requestCount = 0
  private var requests: RateWindow
  private var subscribedOnce = false
  /// When the venue last pushed something to the client (an answer, a ticker, a `pong`).
  private var lastPush: Duration = .zero
  /// The synthetic stream pushes without an instant: noted here, and counted at the deadline.
  private var pushedUntimed = false
  private var closed = false
  private let listed: Set<String>
  /// Whether every well-formed instrument (`ProductCode`) is listed, not only the known ones.
  private let acceptAnySymbol: Bool
  /// The latest ticker entry per instrument (the synthetic stream continues from it).
  private var latest: [String: JSONObject] = [:]
  private var scriptLatest: [String: JSONObject] = [:]

  /// Spot instruments listed besides those the script pushes.
  static let listedInstruments: Set<String> = [
    "BTC-USDT", "ETH-USDT", "SOL-USDT", "XRP-USDT", "DOGE-USDT", "LTC-USDT", "ADA-USDT", "TON-USDT",
    "OKB-USDT", "TRX-USDT", "LINK-USDT", "DOT-USDT", "BCH-USDT", "AVAX-USDT", "BTC-USDC", "ETH-USDC",
    "USDC-USDT", "ETH-BTC", "BTC-EUR", "ETH-EUR",
  ]

  init(script: SessionScript, rules: OKXRules, acceptAnySymbol: Bool = false) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    requests = RateWindow(limit: rules.requestsPerHour, window: .seconds(3600))
    var listed = Self.listedInstruments
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      for (instrument, entry) in Self.tickerEntries(step.body) {
        listed.insert(instrument)
        scriptLatest[instrument] = entry
      }
    }
    self.listed = listed
  }

  /// The entries of a `tickers` push, by instrument; empty for any other message.
  static func tickerEntries(_ text: String) -> [(String, JSONObject)] {
    guard let value = try? JSONParser().parse(text), value["arg"]?["channel"]?.stringValue == "tickers",
      let entries = value["data"]?.arrayValue
    else { return [] }
    return entries.compactMap { entry in
      guard let object = entry.objectValue, let instrument = object["instId"]?.stringValue else { return nil }
      return (instrument, object)
    }
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch input {
    case .ping, .pong: return []
    case .binary(let bytes):
      return refuse(.invalidRequest(String(decoding: bytes, as: UTF8.self)), id: nil, at: now)
    case .text("ping"):
      return push(["pong"], at: now)
    case .text(let text):
      switch OKXRequest.parse(text) {
      case .failure(let refusal): return refuse(refusal, id: nil, at: now)
      case .success(let request): return answer(request, at: now)
      }
    }
  }

  /// The error answering a request refused as a whole.
  private mutating func refuse(_ refusal: OKXWire.Refusal, id: String?, at now: Duration) -> [EmulatorAction]
  {
    push([OKXWire.error(id: id, refusal)], at: now) + [.violation(.invalidRequest(refusal.message))]
  }

  /// The answers to one request, item by item.
  private mutating func answer(_ request: OKXRequest, at now: Duration) -> [EmulatorAction] {
    guard ["subscribe", "unsubscribe", "login"].contains(request.op) else {
      return refuse(.invalidOp(request.op), id: request.id, at: now)
    }
    requestCount += 1
    guard requests.admit(at: now) else {
      return push([OKXWire.error(id: request.id, .tooFrequent)], at: now) + [.violation(.tooManyMessages)]
    }
    // Logging in is for the private feed.
    guard request.op != "login" else { return refuse(.notOnThisURL, id: request.id, at: now) }
    guard let args = request.args, !args.isEmpty else { return refuse(.invalidArgs, id: request.id, at: now) }
    var texts: [String] = []
    var violations: [EmulatorAction] = []
    for arg in args {
      switch item(arg, subscribe: request.op == "subscribe") {
      case .failure(let refusal):
        texts.append(OKXWire.error(id: request.id, refusal))
        violations.append(.violation(.invalidRequest(refusal.message)))
      case .success(let (channel, instrument)):
        texts.append(OKXWire.answer(request.op, id: request.id, channel: channel, instrument: instrument))
      }
    }
    return push(texts, at: now) + violations
  }

  /// Applies one item of a request; the channel and instrument it subscribed or unsubscribed, or
  /// why not.
  private mutating func item(_ arg: JSONValue, subscribe: Bool) -> Result<
    (channel: String, instrument: String), OKXWire.Refusal
  > {
    let channel: String
    let named: String?
    switch OKXRequest.channel(of: arg) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let parts): (channel, named) = parts
    }
    guard channel == "tickers" || channel == "bbo-tbt" else {
      return .failure(.doesNotExist(channel: channel, instrument: named))
    }
    guard let instrument = named else { return .failure(.empty("instId")) }
    guard isListed(instrument) else {
      return .failure(.doesNotExist(channel: channel, instrument: instrument))
    }
    if channel == "bbo-tbt" {
      Self.change(&bookInstruments, instrument, subscribe: subscribe)
    } else {
      Self.change(&instruments, instrument, subscribe: subscribe)
    }
    if subscribe { subscribedOnce = true }
    return .success((channel, instrument))
  }

  private static func change(_ list: inout [String], _ instrument: String, subscribe: Bool) {
    if subscribe {
      if !list.contains(instrument) { list.append(instrument) }
    } else {
      list.removeAll { $0 == instrument }
    }
  }

  private func isListed(_ instrument: String) -> Bool {
    listed.contains(instrument) || (acceptAnySymbol && ProductCode.isWellFormed(instrument))
  }

  /// `texts` as text frames, pushed at `now`.
  private mutating func push(_ texts: [String], at now: Duration) -> [EmulatorAction] {
    if !texts.isEmpty { lastPush = now }
    return texts.map { .text($0) }
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      if step.body == "pong" { return [] }  // the answer to the script's client's ping
      guard let value = try? JSONParser().parse(step.body) else { return push([step.body], at: now) }
      if let event = value["event"]?.stringValue {
        // Answers to what the script's client asked; anything else (a notice) goes out.
        return ["subscribe", "unsubscribe", "error", "login"].contains(event)
          ? [] : push([step.body], at: now)
      }
      guard value["arg"]?["channel"]?.stringValue == "tickers" else { return push([step.body], at: now) }
      for (instrument, entry) in Self.tickerEntries(step.body) { latest[instrument] = entry }
      guard let instrument = value["arg"]?["instId"]?.stringValue, instruments.contains(instrument) else {
        return []
      }
      return push([step.body], at: now)
    case .ping:
      return [.ping(Array(step.body.utf8.prefix(125)))]
    case .close:
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    guard !closed, let deadline = quietDeadline, deadline <= now else { return [] }
    if subscribedOnce && pushedUntimed {
      // The synthetic stream pushed since the last deadline, at instants it does not give: as
      // if now (which can only give the client more time, never less than 30 s).
      pushedUntimed = false
      lastPush = now
      return []
    }
    closed = true
    return [
      .violation(subscribedOnce ? .quiet : .noSubscription),
      .close(CloseStatus(code: CloseCode(4004), reason: "No data received in 30s")),
    ]
  }

  /// When the connection is closed unless something happens: `quietTimeout` after the upgrade
  /// until a subscription is made, then after the last push.
  private var quietDeadline: Duration? {
    guard let timeout = rules.quietTimeout else { return nil }
    return (subscribedOnce ? lastPush : .zero) + .seconds(fractional: timeout)
  }

  var nextDeadline: Duration? { closed ? nil : quietDeadline }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    subscribed.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  /// The instruments of either channel, each once.
  var subscribed: [String] { instruments + bookInstruments.filter { !instruments.contains($0) } }

  var lastPrices: [String: (price: String, time: Int64)] {
    var prices: [String: (price: String, time: Int64)] = [:]
    for (instrument, entry) in scriptLatest.merging(latest, uniquingKeysWith: { $1 }) {
      guard let price = entry["last"]?.stringValue, !price.isEmpty,
        let time = entry["ts"]?.stringValue.flatMap({ Int64($0) })
      else { continue }
      prices[instrument] = (price, time)
    }
    return prices
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    return trades.flatMap { trade -> [EmulatorAction] in
      var actions: [EmulatorAction] = []
      if bookInstruments.contains(trade.symbol) {
        defer { bookSequence += 1 }
        pushedUntimed = true
        actions.append(.text(OKXWire.bookPush(instrument: trade.symbol, trade, sequence: bookSequence)))
      }
      guard instruments.contains(trade.symbol) else { return actions }
      let last =
        latest[trade.symbol] ?? scriptLatest[trade.symbol]
        ?? OKXWire.firstTicker(of: trade.symbol, price: SyntheticTrades.format(cents: trade.cents))
      let entry = OKXWire.ticker(after: last, trade)
      latest[trade.symbol] = entry
      pushedUntimed = true
      return actions + [.text(OKXWire.push(instrument: trade.symbol, entry: entry))]
    }
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any spot instrument of the venue's shape (`ETH-EUR`).
  func walkStart(for symbol: String) -> WalkStart? { ProductCode.isWellFormed(symbol) ? .dollars : nil }
}

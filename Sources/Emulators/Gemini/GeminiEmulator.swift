import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer

/// What Gemini's market data v2 does with a connection, as a pure state machine
/// (docs/protocols.md §10):
///
/// - The upgrade: the feed is served at `/v2/marketdata`; any other path is refused with 404
///   (v1's per-symbol paths are not emulated).
/// - `{"type":"heartbeat","timestamp":…}` every `heartbeatInterval` from the connection's start,
///   whatever else goes out; the client owes nothing in return.
/// - `{"type":"subscribe","subscriptions":[{"name":"l2","symbols":[…]}]}` (`GeminiRequest`):
///   each symbol newly subscribed gets its first `l2_updates`, with its whole book, its last 50
///   trades (newest first) and its auction events: when the script's own first book of the
///   symbol goes by (the recorded answer, at its recorded moment), or at once when the script
///   has none still to come; before anything else of the symbol either way. A request naming no
///   symbol Gemini lists is answered `{"reason":"NoValidTradingPairs","result":"error"}` and
///   changes nothing (the symbols it does not list among some it does are passed over without a
///   word: what Gemini does then is not documented). `unsubscribe` is not answered. A message
///   that is no such request gets an error of the emulation's own; the connection stays.
/// - Symbols are upper-case pairs run together (`BTCUSD`): those the script trades and
///   `listedSymbols`; with `acceptAnySymbol` (the demo) any of that shape ending in a quote
///   currency Gemini uses.
/// - Trades and book changes go out only for symbols subscribed. The script's answers, errors and
///   heartbeats are not replayed, nor its first books as recorded: this emulator makes its own.
/// - The synthetic stream writes each trade, then the `l2_updates` that moves the symbol's book
///   to the walk (`SyntheticTrade.book`): the levels that would cross the new best bid and ask
///   removed, the two set. The same `l2` subscription serves trades and the top of book alike.
struct GeminiEmulator: VenueEmulator {
  let rules: GeminiRules
  /// The subscribed symbols, in subscription order.
  private(set) var symbols: [String] = []
  private(set) var requestCount = 0
  private var nextHeartbeat: Duration?
  private var closed = false
  private let listed: Set<String>
  private let acceptAnySymbol: Bool
  /// Each symbol's book, last trades (newest first) and auction events: the script's first
  /// books, moved on by what goes by, for the first book of each subscription.
  private var books: [String: GeminiBook] = [:]
  private var trades: [String: [JSONObject]] = [:]
  private var auctionEvents: [String: [JSONValue]] = [:]
  /// Symbols whose recorded first book the script has still to play.
  private var scriptBooks: Set<String> = []
  /// Symbols subscribed whose first book waits for the script's.
  private var booksDue: Set<String> = []
  /// The script's last trade per symbol, and the latest that went by (the synthetic stream
  /// continues from it).
  private var scriptLatest: [String: (price: String, time: Int64)] = [:]
  private var latest: [String: (price: String, time: Int64)] = [:]
  /// The next synthetic trade's `event_id`: after every one of the script.
  private var nextEventID: Int64 = 294_811_700_000
  /// The wall-clock time of the connection's start, in milliseconds (heartbeats' `timestamp`).
  private let epoch: Int64

  /// The trades a first book folds in.
  static let tradesKept = 50

  /// Symbols listed besides those the script trades.
  static let listedSymbols: Set<String> = [
    "BTCUSD", "ETHUSD", "SOLUSD", "XRPUSD", "DOGEUSD", "LTCUSD", "LINKUSD", "AVAXUSD", "BCHUSD", "PAXGUSD",
    "USDTUSD", "BTCUSDT", "ETHUSDT", "BTCGUSD", "ETHGUSD", "ETHBTC", "BTCEUR", "ETHEUR", "BTCGBP", "BTCSGD",
  ]

  init(script: SessionScript, rules: GeminiRules, acceptAnySymbol: Bool = false) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    var listed = Self.listedSymbols
    var firstTrade: Int64?
    var lastEventID: Int64 = 0
    func note(_ id: JSONValue?) { lastEventID = max(lastEventID, id?.numberText.flatMap { Int64($0) } ?? 0) }
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body), let symbol = value["symbol"]?.stringValue else {
        continue
      }
      switch value["type"]?.stringValue {
      case "l2_updates":
        guard let recorded = value["trades"]?.arrayValue, books[symbol] == nil else { continue }
        listed.insert(symbol)
        scriptBooks.insert(symbol)
        books[symbol] = GeminiBook(changes: value["changes"])
        trades[symbol] = Array(recorded.compactMap(\.objectValue).prefix(Self.tradesKept))
        auctionEvents[symbol] = value["auction_events"]?.arrayValue ?? []
        if scriptLatest[symbol] == nil, let newest = trades[symbol]?.first.flatMap(Self.priceAndTime) {
          scriptLatest[symbol] = newest
        }
        for trade in recorded { note(trade["event_id"]) }
      case "trade":
        listed.insert(symbol)
        guard let object = value.objectValue, let last = Self.priceAndTime(object) else { continue }
        scriptLatest[symbol] = last
        if firstTrade == nil { firstTrade = last.time }
        note(value["event_id"])
      default: continue
      }
    }
    self.listed = listed
    nextEventID = max(nextEventID, lastEventID + 1)
    // A second before the script's first trade (or a fixed moment without one).
    epoch = (firstTrade ?? 1_791_469_266_458) - 1000
    nextHeartbeat = rules.heartbeatInterval.map { .seconds(fractional: max($0, 0.001)) }
  }

  /// A trade's price and time, from its `price` and `timestamp`.
  static func priceAndTime(_ trade: JSONObject) -> (price: String, time: Int64)? {
    guard let price = trade["price"]?.stringValue,
      let time = trade["timestamp"]?.numberText.flatMap({ Int64($0) })
    else { return nil }
    return (price, time)
  }

  /// Whether `symbol` is of Gemini's shape: upper-case letters and digits run together, ending
  /// in a quote currency Gemini uses.
  static func isWellFormed(_ symbol: String) -> Bool {
    let provider = GeminiProvider()
    return provider.canonicalSymbol(symbol) == .success(symbol) && provider.market(of: symbol) != nil
  }

  private func isListed(_ symbol: String) -> Bool {
    listed.contains(symbol) || (acceptAnySymbol && Self.isWellFormed(symbol))
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission {
    let path = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard path == GeminiProvider.path else {
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
    switch GeminiRequest.parse(text) {
    case .failure(let refusal): return Self.refuse(refusal.rawValue)
    case .success(let request):
      requestCount += 1
      if request.type == "unsubscribe" {
        symbols.removeAll { request.symbols.contains($0) }
        booksDue.subtract(request.symbols)
        return []
      }
      var valid: [String] = []
      for symbol in request.symbols where isListed(symbol) && !valid.contains(symbol) { valid.append(symbol) }
      guard !valid.isEmpty else { return Self.refuse(GeminiWire.noValidTradingPairs) }
      return valid.compactMap { symbol -> EmulatorAction? in
        guard !symbols.contains(symbol) else { return nil }
        symbols.append(symbol)
        guard !scriptBooks.contains(symbol) else {
          booksDue.insert(symbol)
          return nil
        }
        return .text(firstBook(symbol))
      }
    }
  }

  private static func refuse(_ reason: String) -> [EmulatorAction] {
    [.text(GeminiWire.error(reason)), .violation(.invalidRequest(reason))]
  }

  /// The symbol's first `l2_updates` as it stands (an unknown symbol's is empty).
  private func firstBook(_ symbol: String) -> String {
    GeminiWire.firstBook(
      symbol: symbol, book: books[symbol] ?? GeminiBook(), trades: trades[symbol] ?? [],
      auctionEvents: auctionEvents[symbol] ?? [])
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body), case .object(let object) = value else {
        return [.text(step.body)]
      }
      // Answers to what the script's client asked, and the venue's own heartbeats: made here.
      if object["result"] != nil { return [] }
      guard let symbol = object["symbol"]?.stringValue else {
        return object["type"]?.stringValue == "heartbeat" ? [] : [.text(step.body)]
      }
      let type = object["type"]?.stringValue
      if type == "l2_updates" && object["trades"] != nil {
        // The recorded answer to the script's subscription: the moment this connection's is due.
        scriptBooks.remove(symbol)
        return booksDue.remove(symbol) == nil ? [] : [.text(firstBook(symbol))]
      }
      // A symbol's first book goes before anything else of it.
      let due: [EmulatorAction] = booksDue.remove(symbol) == nil ? [] : [.text(firstBook(symbol))]
      switch type {
      case "l2_updates": books[symbol, default: GeminiBook()].apply(object["changes"])
      case "trade": remember(object, of: symbol)
      default: break
      }
      return symbols.contains(symbol) ? due + [.text(step.body)] : []
    case .ping:
      return [.ping(Array(step.body.utf8.prefix(125)))]
    case .close:
      closed = true
      return [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return []
    }
  }

  /// A trade that went by: the newest of its symbol's trades, where the walk continues.
  private mutating func remember(_ trade: JSONObject, of symbol: String) {
    var kept = trades[symbol] ?? []
    kept.insert(trade, at: 0)
    trades[symbol] = Array(kept.prefix(Self.tradesKept))
    if let last = Self.priceAndTime(trade) { latest[symbol] = last }
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    guard !closed, let due = nextHeartbeat, due <= now, let interval = rules.heartbeatInterval else {
      return []
    }
    nextHeartbeat = now + .seconds(fractional: max(interval, 0.001))
    return [.text(GeminiWire.heartbeat(at: epoch + Int64((now.fractionalSeconds * 1000).rounded())))]
  }

  var nextDeadline: Duration? { closed ? nil : nextHeartbeat }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    symbols.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  var subscribed: [String] { symbols }

  var lastPrices: [String: (price: String, time: Int64)] {
    scriptLatest.merging(latest) { $1 }
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    return trades.flatMap { trade -> [EmulatorAction] in
      guard symbols.contains(trade.symbol) else { return [] }
      let object = GeminiWire.trade(
        symbol: trade.symbol, eventID: nextEventID, time: trade.time,
        price: SyntheticTrades.format(cents: trade.cents, places: 2),
        quantity: GeminiWire.trimmed(SyntheticTrades.format(volume: trade.volume, places: 8)),
        side: trade.up ? "buy" : "sell")
      nextEventID += 1
      remember(object, of: trade.symbol)
      return [.text(JSONValue.object(object).serialized)]
        + (bookChanges(after: trade).map { [.text($0)] } ?? [])
    }
  }

  /// The `l2_updates` that moves `trade`'s symbol's book to the walk's best bid and ask; nil
  /// when the book is there already.
  private mutating func bookChanges(after trade: SyntheticTrade) -> String? {
    let top = trade.book
    func level(_ cents: Int64, _ size: Int) -> GeminiBook.Level {
      GeminiBook.Level(
        price: SyntheticTrades.format(cents: cents, places: 2),
        quantity: GeminiWire.trimmed(SyntheticTrades.format(volume: size, places: 8)))
    }
    let changes = books[trade.symbol, default: GeminiBook()].moveTop(
      bid: level(top.bidCents, top.bidSize), ask: level(top.askCents, top.askSize))
    guard case .array(let list) = changes, !list.isEmpty else { return nil }
    return GeminiWire.bookChanges(symbol: trade.symbol, changes: changes)
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any symbol of Gemini's shape (`FILUSD`).
  func walkStart(for symbol: String) -> WalkStart? { Self.isWellFormed(symbol) ? .dollars : nil }
}

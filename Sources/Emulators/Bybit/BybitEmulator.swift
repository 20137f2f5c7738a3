import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer

/// What Bybit's v5 public spot feed does with a connection, as a pure state machine
/// (docs/protocols.md §9):
///
/// - The upgrade: the feed is served at `/v5/public/spot`; any other path is refused with 404
///   (Bybit's other public feeds, `linear`, `inverse`, `option`, are not emulated).
/// - Requests `{"req_id":…,"op":"subscribe"|"unsubscribe","args":["publicTrade.BTCUSDT",…]}` are
///   answered once each, echoing `req_id` (no `req_id` when the request had none):
///   `{"success":true,"ret_msg":"subscribe",…}`, or `"success":false` with the reason in
///   `ret_msg`. More than `argsPerRequest` topics: `args size >10`. A subscription with one
///   bad topic is refused as a whole, naming the first (as observed on the linear feed): a
///   symbol Bybit does not list `Invalid symbol :[publicTrade.X]` (`orderbook.1.X` alike), a
///   topic other than `publicTrade` and `orderbook.1` (the only ones emulated)
///   `error:handler not found,topic:…`, a topic held
///   already `error:already subscribed,topic:…`. Unsubscribing a topic not held is answered as a
///   success. An unknown `op` gets `error:invalid op`, a message that is no JSON object
///   `Failed to decode incoming data:…`; the connection stays open through all of them.
/// - Symbols are upper-case letters and digits: those the script trades and a built-in list of
///   common ones (`listedSymbols`); with `acceptAnySymbol` (the demo) any of that shape.
/// - `{"op":"ping"}` (with or without `req_id`) is answered with the spot pong, which names no
///   `req_id`.
/// - A connection that has been pushed nothing (a pong, an answer, a trade) for `idleTimeout` is
///   cut: dropped without a close frame (how Bybit cuts it is not documented; a relay of its
///   linear feed was seen to end an idle socket so). WebSocket ping frames from the client do not
///   count: Bybit names its own ping-pong.
/// - Trade messages go out only for symbols subscribed; the script's answers and pongs (replies to
///   what its client said) are not replayed: this emulator makes its own.
/// - The synthetic stream writes each `orderbook.1` subscription's level-1 book around the walk:
///   a snapshot first, then deltas (a side unchanged is an empty array; a top that moved is the
///   old price at size `"0"` and the new one), and a snapshot again when neither side changed,
///   as Bybit re-sends an unchanged level-1 book.
///
/// The connection rate per address (`connectionsPerWindow`) is the server's to enforce
/// (`BybitProvider.connectionLimit`): one emulator sees one connection.
struct BybitEmulator: VenueEmulator {
  let rules: BybitRules
  /// Symbols subscribed on `publicTrade`, in subscription order.
  private(set) var symbols: [String] = []
  /// Symbols subscribed on `orderbook.1`, in subscription order.
  private(set) var bookSymbols: [String] = []
  /// The level-1 book last written per book subscription, and its update id `u`: the next
  /// message is a delta from it (none yet: a snapshot).
  private var sentBooks: [String: (book: SyntheticBook, u: Int64)] = [:]
  private(set) var requestCount = 0
  /// When the venue last pushed something to the client.
  private var lastPush: Duration = .zero
  /// The synthetic stream pushes without an instant: noted here, and counted at the deadline.
  private var pushedUntimed = false
  private var closed = false
  private let listed: Set<String>
  private let acceptAnySymbol: Bool
  /// The last trade per symbol, price as written and time (the synthetic stream continues it).
  private var latest: [String: (price: String, time: Int64)] = [:]
  /// The next trade id and cross sequence the synthetic stream writes, after the script's.
  private var nextTradeID: Int64 = 2_290_000_001_000_000_000
  private var nextSeq: Int64 = 115_000_000_000

  /// Spot symbols listed besides those the script trades.
  static let listedSymbols: Set<String> = [
    "BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT", "LTCUSDT", "ADAUSDT", "TONUSDT", "TRXUSDT",
    "LINKUSDT", "DOTUSDT", "BCHUSDT", "AVAXUSDT", "MNTUSDT", "BTCUSDC", "ETHUSDC", "USDCUSDT", "ETHBTC",
    "BTCEUR", "ETHEUR",
  ]

  init(script: SessionScript, rules: BybitRules, acceptAnySymbol: Bool = false) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    var listed = Self.listedSymbols
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body) else { continue }
      for entry in Self.tradeEntries(value) {
        guard let symbol = entry["s"]?.stringValue, let price = entry["p"]?.stringValue,
          let time = entry["T"]?.numberText.flatMap({ Int64($0) })
        else { continue }
        listed.insert(symbol)
        if time >= latest[symbol]?.time ?? .min { latest[symbol] = (price, time) }
        if let id = entry["i"]?.stringValue.flatMap({ Int64($0) }) { nextTradeID = max(nextTradeID, id + 1) }
        if let seq = entry["seq"]?.numberText.flatMap({ Int64($0) }) { nextSeq = max(nextSeq, seq + 1) }
      }
    }
    self.listed = listed
  }

  /// The entries of a `publicTrade` message; empty for anything else.
  static func tradeEntries(_ value: JSONValue) -> [JSONObject] {
    guard let topic = value["topic"]?.stringValue, topic.hasPrefix(BybitWire.tradeTopic) else { return [] }
    return value["data"]?.arrayValue?.compactMap(\.objectValue) ?? []
  }

  /// Whether `symbol` has the shape of Bybit's spot symbols: upper-case ASCII letters and digits.
  static func isWellFormed(_ symbol: String) -> Bool {
    !symbol.isEmpty
      && symbol.utf8.allSatisfy {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
      }
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission {
    let path = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard path == "/v5/public/spot" else {
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
    switch BybitRequest.parse(text) {
    case .failure(let failure):
      return refuse(failure.refusal, op: nil, requestID: failure.requestID, at: now)
    case .success(let request) where request.op == "ping":
      return push([BybitWire.pong], at: now)
    case .success(let request) where request.op == "subscribe" || request.op == "unsubscribe":
      return answer(request, at: now)
    case .success(let request):
      return refuse(.invalidOp, op: request.op, requestID: request.requestID, at: now)
    }
  }

  /// The refusal of a request, pushed at `now`, and the violation it records.
  private mutating func refuse(
    _ refusal: BybitWire.Refusal, op: String?, requestID: String?, at now: Duration
  ) -> [EmulatorAction] {
    push([BybitWire.refusal(refusal, op: op, requestID: requestID)], at: now)
      + [.violation(.invalidRequest(refusal.message))]
  }

  /// The answer to a `subscribe` or `unsubscribe`, all of it or nothing.
  private mutating func answer(_ request: BybitRequest, at now: Duration) -> [EmulatorAction] {
    requestCount += 1
    guard let topics = request.topics else {
      return refuse(.invalidArgs, op: request.op, requestID: request.requestID, at: now)
    }
    guard topics.count <= rules.argsPerRequest else {
      return refuse(
        .argsSize(limit: rules.argsPerRequest), op: request.op, requestID: request.requestID, at: now)
    }
    if request.op == "subscribe" {
      for topic in topics {
        if let refusal = problem(subscribing: topic) {
          return refuse(refusal, op: request.op, requestID: request.requestID, at: now)
        }
      }
      for topic in topics {
        if topic.hasPrefix(BybitWire.bookTopic) {
          let symbol = String(topic.dropFirst(BybitWire.bookTopic.count))
          if !bookSymbols.contains(symbol) { bookSymbols.append(symbol) }
          sentBooks[symbol] = nil
          continue
        }
        let symbol = String(topic.dropFirst(BybitWire.tradeTopic.count))
        if !symbols.contains(symbol) { symbols.append(symbol) }
      }
    } else {
      let gone = Set(
        topics.filter { $0.hasPrefix(BybitWire.tradeTopic) }.map { $0.dropFirst(BybitWire.tradeTopic.count) })
      symbols.removeAll { gone.contains(Substring($0)) }
      let goneBooks = Set(
        topics.filter { $0.hasPrefix(BybitWire.bookTopic) }.map { $0.dropFirst(BybitWire.bookTopic.count) })
      bookSymbols.removeAll { goneBooks.contains(Substring($0)) }
    }
    return push([BybitWire.answer(op: request.op, requestID: request.requestID)], at: now)
  }

  /// Why subscribing `topic` is refused; nil when it is not.
  private func problem(subscribing topic: String) -> BybitWire.Refusal? {
    let prefix = topic.hasPrefix(BybitWire.bookTopic) ? BybitWire.bookTopic : BybitWire.tradeTopic
    guard topic.hasPrefix(prefix), topic.count > prefix.count else {
      return .handlerNotFound(topic: topic)
    }
    let symbol = String(topic.dropFirst(prefix.count))
    guard isListed(symbol) else { return .invalidSymbol(topic: topic) }
    let held = prefix == BybitWire.bookTopic ? bookSymbols : symbols
    guard !held.contains(symbol) else { return .alreadySubscribed(topic: topic) }
    return nil
  }

  private func isListed(_ symbol: String) -> Bool {
    listed.contains(symbol) || (acceptAnySymbol && Self.isWellFormed(symbol))
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
      guard let value = try? JSONParser().parse(step.body), case .object(let object) = value else {
        return push([step.body], at: now)
      }
      // Answers and pongs the script's client was given: this emulator makes its own.
      if object["op"] != nil || object["success"] != nil { return [] }
      guard let topic = object["topic"]?.stringValue, topic.hasPrefix(BybitWire.tradeTopic) else {
        return push([step.body], at: now)
      }
      for entry in Self.tradeEntries(value) {
        if let symbol = entry["s"]?.stringValue, let price = entry["p"]?.stringValue,
          let time = entry["T"]?.numberText.flatMap({ Int64($0) })
        {
          latest[symbol] = (price, time)
        }
      }
      guard symbols.contains(String(topic.dropFirst(BybitWire.tradeTopic.count))) else { return [] }
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
    guard !closed, let deadline = idleDeadline, deadline <= now else { return [] }
    if pushedUntimed {
      // The synthetic stream pushed since the last deadline, at instants it does not give: as
      // if now (which can only give the client more time, never less).
      pushedUntimed = false
      lastPush = now
      return []
    }
    closed = true
    return [.violation(.quiet), .drop]
  }

  /// When the connection is cut unless something is pushed: `idleTimeout` after the last push
  /// (or the upgrade).
  private var idleDeadline: Duration? {
    rules.idleTimeout.map { lastPush + .seconds(fractional: $0) }
  }

  var nextDeadline: Duration? { closed ? nil : idleDeadline }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    symbols.count + bookSymbols.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  /// Trade subscriptions by symbol (`BTCUSDT`), book subscriptions by topic
  /// (`orderbook.1.BTCUSDT`): the synthetic stream tells them apart by that.
  var subscribed: [String] { symbols + bookSymbols.map { BybitWire.bookTopic + $0 } }

  /// A book subscription's walk starts where its symbol last traded.
  var lastPrices: [String: (price: String, time: Int64)] {
    var prices = latest
    for symbol in bookSymbols { prices[BybitWire.bookTopic + symbol] = latest[symbol] }
    return prices
  }

  /// Trades as spot writes them: consecutive trades of one symbol in one message (one match,
  /// one cross sequence), prices and sizes without trailing zeros.
  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    let mine = trades.filter { symbols.contains($0.symbol) }
    var actions = bookMessages(trades)
    var start = 0
    while start < mine.count {
      let symbol = mine[start].symbol
      var end = start
      var entries: [String] = []
      while end < mine.count && mine[end].symbol == symbol {
        let trade = mine[end]
        let price = SyntheticTrades.format(cents: trade.cents)
        let size = BybitWire.trimmed(SyntheticTrades.format(volume: trade.volume, places: 6))
        entries.append(
          BybitWire.entry(
            id: nextTradeID, time: trade.time, price: price, size: size, buy: trade.up, seq: nextSeq,
            symbol: symbol))
        nextTradeID += 1
        latest[symbol] = (price, trade.time)
        end += 1
      }
      nextSeq += 1
      actions.append(.text(BybitWire.trades(symbol: symbol, ts: mine[end - 1].time + 1, entries: entries)))
      start = end
    }
    if !actions.isEmpty { pushedUntimed = true }
    return actions
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// The level-1 book after each trade of a book subscription (`orderbook.1.BTCUSDT`): a
  /// snapshot first, then deltas from the book last written.
  private mutating func bookMessages(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    var actions: [EmulatorAction] = []
    for trade in trades where trade.symbol.hasPrefix(BybitWire.bookTopic) {
      let symbol = String(trade.symbol.dropFirst(BybitWire.bookTopic.count))
      guard bookSymbols.contains(symbol) else { continue }
      let book = trade.book
      let previous = sentBooks[symbol]
      let u = (previous?.u ?? 30_512_000) + 1
      defer { nextSeq += 1 }
      sentBooks[symbol] = (book, u)
      actions.append(
        .text(
          BybitWire.book(
            symbol: symbol, book: book, previous: previous?.book, u: u, seq: nextSeq, ts: trade.time + 1,
            cts: trade.time)))
    }
    if !actions.isEmpty { pushedUntimed = true }
    return actions
  }

  /// What a book subscription trades (`orderbook.1.ETHBTC`: ETH in BTC); trade subscriptions are
  /// named by the provider.
  func market(of symbol: String) -> Market? {
    guard symbol.hasPrefix(BybitWire.bookTopic) else { return nil }
    return Market.splittingRunTogether(String(symbol.dropFirst(BybitWire.bookTopic.count)))
  }

  /// Any spot symbol of the venue's shape (`XLMUSDT`), traded or its book
  /// (`orderbook.1.XLMUSDT`).
  func walkStart(for symbol: String) -> WalkStart? {
    let bare =
      symbol.hasPrefix(BybitWire.bookTopic) ? String(symbol.dropFirst(BybitWire.bookTopic.count)) : symbol
    return Self.isWellFormed(bare) ? .dollars : nil
  }
}

import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer

/// What Bitfinex's public WebSocket API v2 does with a connection, as a pure state machine
/// (docs/protocols.md §11):
///
/// - `{"event":"info","version":2,…}` as soon as the connection opens.
/// - `{"event":"subscribe","channel":"trades","symbol":…}` opens a channel: `subscribed` with its
///   id, then at once the snapshot of the pair's recent trades (newest first). A symbol sent
///   without its `t` is taken with it (observed). Refusals are errors echoing the request's
///   `channel` and `symbol` (and the `pair`); the connection stays: 10300 `symbol: invalid` for a
///   pair Bitfinex does not list, 10300 `channel: unknown` for another channel than `trades` and
///   `ticker` (the ones emulated), 10301 `subscribe: dup` with the open channel's id for a pair
///   already subscribed there, 10305 `subscribe: limit` past `channelsPerConnection` channels.
/// - `{"event":"subscribe","channel":"ticker","symbol":…}` opens the pair's ticker channel alike,
///   `subscribed` naming `ticker`, then at once its ticker when the pair has traded; the synthetic
///   walk's steps go out as tickers (`[CHANNEL_ID,[BID,BID_SIZE,ASK,ASK_SIZE,…]]`). A ticker
///   channel is in `subscribed` as the pair and `@ticker` (`tBTCUSD@ticker`).
/// - `{"event":"unsubscribe","chanId":…}` closes a channel (`unsubscribed`), or 10400
///   `unsubscribe: invalid` for an id no channel has. There is no other way to unsubscribe.
/// - `ping` is answered by `pong` (its `cid` echoed), `conf` by `conf`, another event by 10000
///   `event: invalid (…)`; text that is not JSON gets no answer (observed).
/// - A channel that carried nothing for `heartbeatInterval` gets `[CHANNEL_ID,"hb"]`. A
///   connection without a channel whose client said nothing for `idleTimeout` is dropped
///   without a close frame (observed at 60 s); one with a channel is never closed for quiet.
/// - Pairs are `t` and an upper-case pair: those the script trades and `listedPairs`; with
///   `acceptAnySymbol` (the demo) every pair of that shape.
/// - The script's trades (`te` and `tu`) go out, rewritten to this connection's id for their
///   pair, only for subscribed pairs; its snapshots are the pairs' history before the recording
///   (sent on subscribing), and its info, answers, errors and heartbeats are made here. The
///   synthetic walk's trades go out as `te` alone.
struct BitfinexEmulator: VenueEmulator {
  let rules: BitfinexRules
  /// Subscribed pairs (and tickers: `tickerKey`), in subscription order, and each one's channel
  /// on this connection.
  private var pairs: [String] = []
  private var channels: [String: Int64] = [:]
  private(set) var requestCount = 0
  private var infoSent = false
  private var closed = false
  /// When the client last sent a message (for the idle rule).
  private var lastClientMessage: Duration = .zero
  /// When each channel last carried something, and the channels the synthetic stream (which
  /// gives no instants) has written to since.
  private var lastSent: [Int64: Duration] = [:]
  private var pushedUntimed: Set<Int64> = []
  /// Channel ids handed out on this connection (each once); the next new one.
  private var usedChannels: Set<Int64> = []
  private var nextChannel: Int64
  private let listed: Set<String>
  private let acceptAnySymbol: Bool
  /// The script's channels: its channel ids and their pairs.
  private let scriptChannels: [Int64: String]
  /// Each pair's recent trades, newest first (what a snapshot sends), as the market goes on.
  private var recent: [String: [BitfinexWire.Trade]]
  /// Each pair's last trade in the script (where the synthetic stream starts), and since.
  private let scriptLast: [String: BitfinexWire.Trade]
  private var latest: [String: BitfinexWire.Trade] = [:]
  /// Each ticker's day so far, by pair (from its first synthetic step).
  private var days: [String: BitfinexWire.Day] = [:]
  private var nextTradeID: Int64
  /// Epoch milliseconds of the connection's start (`pong`'s `ts`).
  private let epoch: Int64

  /// Pairs listed besides those the script trades.
  static let listedPairs: Set<String> = [
    "tBTCUSD", "tETHUSD", "tBTCUST", "tETHUST", "tUSTUSD", "tSOLUSD", "tXRPUSD", "tLTCUSD", "tADAUSD",
    "tDOGE:USD", "tLINK:USD", "tAVAX:USD", "tBTCEUR", "tETHEUR", "tBTCGBP", "tBTCJPY", "tETHBTC",
    "tTESTBTC:TESTUSD",
  ]

  /// Trades a snapshot carries at most (Bitfinex sends its last 30).
  static let snapshotLength = 30

  /// - Parameter history: whether the script's trades are the pairs' history (their snapshots);
  ///   without, a snapshot holds only what the connection itself has traded.
  init(script: SessionScript, rules: BitfinexRules, acceptAnySymbol: Bool = false, history: Bool = true) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    var scriptChannels: [Int64: String] = [:]
    var recent: [String: [BitfinexWire.Trade]] = [:]
    var last: [String: BitfinexWire.Trade] = [:]
    var topID: Int64 = 0
    var first: Int64?
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body) else { continue }
      if value["event"]?.stringValue == "subscribed", value["channel"]?.stringValue == "trades",
        let id = value["chanId"]?.numberText.flatMap({ Int64($0) }), let pair = value["symbol"]?.stringValue
      {
        scriptChannels[id] = pair
        continue
      }
      guard let fields = value.arrayValue, fields.count >= 2,
        let id = fields.first?.numberText.flatMap({ Int64($0) }), let pair = scriptChannels[id]
      else { continue }
      if let entries = fields[1].arrayValue {
        // A snapshot: the pair's trades before the recording began.
        let trades = entries.compactMap(BitfinexWire.Trade.init)
        recent[pair] = Array(trades.prefix(Self.snapshotLength))
        if last[pair] == nil, let newest = trades.first { last[pair] = newest }
        for trade in trades {
          topID = max(topID, trade.id)
          first = min(first ?? trade.time, trade.time)
        }
      } else if fields.count >= 3, fields[1].stringValue == "te", let trade = BitfinexWire.Trade(fields[2]) {
        last[pair] = trade
        topID = max(topID, trade.id)
        first = min(first ?? trade.time, trade.time)
      }
    }
    self.scriptChannels = scriptChannels
    self.recent = history ? recent : [:]
    scriptLast = last
    nextTradeID = topID == 0 ? 1_842_915_700 : topID
    nextChannel = (scriptChannels.keys.max() ?? 17_470) + 1
    listed = Self.listedPairs.union(scriptChannels.values)
    // A second after the script's first trade (or a fixed moment without one).
    epoch = (first ?? 1_791_966_064_211) + 1000
  }

  /// What a ticker channel is called in `subscribed`: `tBTCUSD@ticker`.
  static func tickerKey(_ pair: String) -> String { pair + "@ticker" }

  /// The pair of a ticker channel's key; nil for a trades channel's.
  static func tickerPair(_ key: String) -> String? {
    key.hasSuffix("@ticker") ? String(key.dropLast("@ticker".count)) : nil
  }

  /// Whether `pair` has the shape of a Bitfinex trading pair's symbol (`tXLMUSD`, `tDOGE:USD`).
  static func isWellFormed(_ pair: String) -> Bool {
    BitfinexProvider().canonicalSymbol(pair) == .success(pair)
  }

  private func isListed(_ pair: String) -> Bool {
    listed.contains(pair) || (acceptAnySymbol && Self.isWellFormed(pair))
  }

  /// The `info` event, once, before anything else the connection gets.
  private mutating func greeting() -> [EmulatorAction] {
    guard !infoSent else { return [] }
    infoSent = true
    return [.text(BitfinexWire.info)]
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    let text: String
    switch input {
    case .ping, .pong: return []
    case .text(let t): text = t
    case .binary(let bytes): text = String(decoding: bytes, as: UTF8.self)
    }
    lastClientMessage = now
    let out = greeting()
    switch BitfinexRequest.parse(text) {
    case .failure(.notJSON): return out
    case .failure(.notAnEvent): return out + refuse(.invalidEvent(nil))
    case .success(let request): return out + answer(request, at: now)
    }
  }

  private mutating func answer(_ request: BitfinexRequest, at now: Duration) -> [EmulatorAction] {
    switch request.event {
    case "subscribe":
      requestCount += 1
      return subscribe(request, at: now)
    case "unsubscribe":
      requestCount += 1
      return unsubscribe(request)
    case "ping":
      let milliseconds = epoch + Int64((now.fractionalSeconds * 1000).rounded(.down))
      return [.text(BitfinexWire.pong(at: milliseconds, cid: request.fields["cid"]?.numberText))]
    case "conf":
      return [.text(BitfinexWire.conf(flags: request.fields["flags"]?.numberText ?? "0"))]
    default:
      return refuse(.invalidEvent(request.event))
    }
  }

  /// An error answering a message that is no request this venue serves.
  private func refuse(_ refusal: BitfinexWire.Refusal, channel: Int64? = nil) -> [EmulatorAction] {
    [.text(BitfinexWire.error(refusal, channel: channel)), .violation(.invalidRequest(refusal.message))]
  }

  /// A subscription: the channel opened (its answer and its snapshot), or why not.
  private mutating func subscribe(_ request: BitfinexRequest, at now: Duration) -> [EmulatorAction] {
    let channel = request.string("channel") ?? ""
    let asked = request.string("symbol") ?? ""
    func refused(_ refusal: BitfinexWire.Refusal, open: Int64? = nil) -> EmulatorAction {
      .text(BitfinexWire.subscribeError(refusal, channel: channel, symbol: asked, open: open))
    }
    guard channel == "trades" || channel == "ticker" else {
      return [
        refused(.unknownChannel), .violation(.invalidRequest(BitfinexWire.Refusal.unknownChannel.message)),
      ]
    }
    let pair = asked.hasPrefix("t") || asked.hasPrefix("f") ? asked : "t" + asked
    guard isListed(pair) else {
      return [
        refused(.invalidSymbol), .violation(.invalidRequest(BitfinexWire.Refusal.invalidSymbol.message)),
      ]
    }
    let key = channel == "ticker" ? Self.tickerKey(pair) : pair
    // Asking again for an open channel is harmless: the answer names it.
    if let open = channels[key] { return [refused(.duplicate, open: open)] }
    guard pairs.count < rules.channelsPerConnection else {
      return [refused(.limit), .violation(.invalidRequest(BitfinexWire.Refusal.limit.message))]
    }
    let id = channelID(for: key)
    channels[key] = id
    pairs.append(key)
    lastSent[id] = now
    if channel == "ticker" {
      return [.text(BitfinexWire.subscribed(channel: id, symbol: pair, kind: "ticker"))]
        + openingTicker(pair: pair, channel: id)
    }
    return [
      .text(BitfinexWire.subscribed(channel: id, symbol: pair)),
      .text(BitfinexWire.snapshot(channel: id, recent[pair] ?? [])),
    ]
  }

  /// The pair's ticker as Bitfinex sends it on subscribing, around its newest trade (of the
  /// connection, or else of its history); nothing when it has none (the demo's market, which
  /// trades from now: the recording's prices are not its).
  private mutating func openingTicker(pair: String, channel: Int64) -> [EmulatorAction] {
    guard let last = latest[pair] ?? recent[pair]?.first, let cents = SyntheticTrades.parseCents(last.price)
    else { return [] }
    let trade = SyntheticTrade(symbol: pair, cents: cents, time: last.time, volume: 100, up: true)
    return [.text(ticker(trade, pair: pair, channel: channel))]
  }

  /// A new channel id for `pair`: the script's own the first time (so the recorded messages keep
  /// theirs), else the next unused one.
  private mutating func channelID(for pair: String) -> Int64 {
    if let recorded = scriptChannels.first(where: { $0.value == pair })?.key, !usedChannels.contains(recorded)
    {
      usedChannels.insert(recorded)
      return recorded
    }
    while usedChannels.contains(nextChannel) || scriptChannels[nextChannel] != nil { nextChannel += 1 }
    usedChannels.insert(nextChannel)
    return nextChannel
  }

  private mutating func unsubscribe(_ request: BitfinexRequest) -> [EmulatorAction] {
    guard let id = request.channel, let pair = channels.first(where: { $0.value == id })?.key else {
      return refuse(.invalidUnsubscribe, channel: request.channel)
    }
    channels[pair] = nil
    pairs.removeAll { $0 == pair }
    lastSent[id] = nil
    pushedUntimed.remove(id)
    return [.text(BitfinexWire.unsubscribed(channel: id))]
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    let out = greeting()
    switch step.kind {
    case .text, .binary:
      guard let value = try? JSONParser().parse(step.body) else { return out + [.text(step.body)] }
      if value.objectValue != nil {
        // Replies to the recording's client and the venue's own info: made here.
        let made = ["info", "subscribed", "unsubscribed", "error", "pong", "conf"]
        return made.contains(value["event"]?.stringValue ?? "") ? out : out + [.text(step.body)]
      }
      guard let fields = value.arrayValue, fields.count >= 2,
        let scriptID = fields[0].numberText.flatMap({ Int64($0) }), let pair = scriptChannels[scriptID]
      else { return out + [.text(step.body)] }
      // Heartbeats are this connection's own; snapshots are sent on subscribing.
      guard fields.count >= 3, let kind = fields[1].stringValue, kind == "te" || kind == "tu",
        let trade = BitfinexWire.Trade(fields[2])
      else { return out }
      if kind == "te" { note(trade, of: pair) }
      guard let id = channels[pair] else { return out }
      lastSent[id] = now
      return out + [.text(BitfinexWire.trade(channel: id, kind, trade))]
    case .ping:
      return out + [.ping(Array(step.body.utf8.prefix(125)))]
    case .close:
      closed = true
      return out + [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw:
      return out
    }
  }

  /// A trade of `pair` made on the venue (whoever is subscribed): the pair's history grows.
  private mutating func note(_ trade: BitfinexWire.Trade, of pair: String) {
    latest[pair] = trade
    var trades = recent[pair] ?? []
    trades.insert(trade, at: 0)
    recent[pair] = Array(trades.prefix(Self.snapshotLength))
    nextTradeID = max(nextTradeID, trade.id)
  }

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    var out = greeting()
    if let deadline = idleDeadline, deadline <= now {
      closed = true
      return out + [.violation(.idle), .drop]
    }
    guard let interval = heartbeatInterval else { return out }
    for pair in pairs {
      guard let id = channels[pair], let sent = lastSent[id], sent + interval <= now else { continue }
      // The synthetic stream wrote to the channel since (at instants it does not give): as if now.
      if pushedUntimed.remove(id) == nil { out.append(.text(BitfinexWire.heartbeat(channel: id))) }
      lastSent[id] = now
    }
    return out
  }

  private var heartbeatInterval: Duration? {
    rules.heartbeatInterval.map { .seconds(fractional: max($0, 0.001)) }
  }

  /// When a connection without a channel is dropped unless its client says something.
  private var idleDeadline: Duration? {
    guard pairs.isEmpty else { return nil }
    return rules.idleTimeout.map { lastClientMessage + .seconds(fractional: $0) }
  }

  var nextDeadline: Duration? {
    if closed { return nil }
    let heartbeat = heartbeatInterval.flatMap { interval in
      pairs.compactMap { channels[$0].flatMap { lastSent[$0] } }.min().map { $0 + interval }
    }
    return earliest(infoSent ? nil : .zero, idleDeadline, heartbeat)
  }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    pairs.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  var subscribed: [String] { pairs }

  /// Each pair's last trade, under its ticker's key too: a ticker walks from where its pair
  /// traded.
  var lastPrices: [String: (price: String, time: Int64)] {
    let trades = scriptLast.merging(latest, uniquingKeysWith: { $1 }).mapValues { ($0.price, $0.time) }
    var out = trades
    for (pair, last) in trades { out[Self.tickerKey(pair)] = last }
    return out
  }

  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    var out = greeting()
    for synthetic in trades {
      if let pair = Self.tickerPair(synthetic.symbol) {
        guard let id = channels[synthetic.symbol] else { continue }
        pushedUntimed.insert(id)
        out.append(.text(ticker(synthetic, pair: pair, channel: id)))
        continue
      }
      nextTradeID += 1
      let trade = BitfinexWire.Trade(
        id: nextTradeID, time: synthetic.time,
        amount: BitfinexWire.amount(volume: synthetic.volume, sell: !synthetic.up),
        price: SyntheticTrades.format(cents: synthetic.cents))
      note(trade, of: synthetic.symbol)
      guard let id = channels[synthetic.symbol] else { continue }
      pushedUntimed.insert(id)
      // The `te` alone: the `tu` that follows it on the venue repeats it and carries no price the
      // client reads, and every message of the stream is a price.
      out.append(.text(BitfinexWire.trade(channel: id, "te", trade)))
    }
    return out
  }

  /// The ticker of `pair` after `trade`: its book around the trade, its day counted on.
  private mutating func ticker(_ trade: SyntheticTrade, pair: String, channel: Int64) -> String {
    var day = days[pair] ?? BitfinexWire.Day(open: trade.cents)
    day.trade(cents: trade.cents, volume: trade.volume)
    days[pair] = day
    return BitfinexWire.ticker(channel: channel, book: trade.book, last: trade.cents, day: day)
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any trading pair of Bitfinex's shape (`tXLMUSD`), and its ticker (`tXLMUSD@ticker`).
  func walkStart(for symbol: String) -> WalkStart? {
    Self.isWellFormed(Self.tickerPair(symbol) ?? symbol) ? .dollars : nil
  }

  /// What a ticker channel's pair trades; nil for a pair (the provider knows).
  func market(of symbol: String) -> Market? {
    Self.tickerPair(symbol).flatMap { BitfinexProvider().market(of: $0) }
  }
}

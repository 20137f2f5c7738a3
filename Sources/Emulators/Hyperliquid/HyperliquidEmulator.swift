import JSON
import Recording
import TickerSupport
import Venues
import WebSocketServer
import WebSocketWire

/// What Hyperliquid's public WebSocket does with a connection, as a pure state machine
/// (docs/protocols.md §7):
///
/// - The text `Websocket connection established.` as soon as the connection opens.
/// - Requests `{"method":"subscribe"|"unsubscribe","subscription":{"type":"trades","coin":…}}`,
///   one subscription each, answered `{"channel":"subscriptionResponse","data":{…}}` echoing it,
///   or refused with `{"channel":"error","data":"…"}` quoting it: `Invalid subscription` (a coin
///   the venue does not list, or another type than `trades`, the only one emulated), `Already
///   subscribed`, `Already unsubscribed`; a message that is no request gets `Error parsing JSON
///   into valid websocket request`. The connection stays open.
/// - A subscription first gets the coin's recent trades on this connection (the back-fill), then
///   its trades as they happen; the script's first trades of a coin are its recorded back-fill.
/// - A `bbo` subscription, answered alike, gets no back-fill: a `bbo` message around each trade
///   of the coin (scripted or synthetic) as it happens.
/// - `{"method":"ping"}` is answered with `{"channel":"pong"}`.
/// - A connection the venue has sent nothing to for `idleTimeout` is closed (1001 "idle": how the
///   venue closes it is not documented). Client messages do not count: what keeps a quiet
///   connection is the `pong` its ping gets.
/// - More than `messagesPerWindow` client messages in `messageWindow`, or more than
///   `subscriptionLimit` subscriptions, are refused with an error (the venue's words for these
///   are not documented).
/// - Coins are those the script trades and a built-in list (`listedCoins`); with `acceptAnySymbol`
///   (the demo) any coin of the venue's shape. The script's answers, errors, pongs and greeting
///   are not replayed: this emulator makes its own.
struct HyperliquidEmulator: VenueEmulator {
  let rules: HyperliquidRules
  /// The subscribed coins, in subscription order: of `trades`, and of `bbo`.
  private(set) var coins: [String] = []
  private(set) var bboCoins: [String] = []
  private(set) var requestCount = 0
  private var rate: RateWindow
  private var greeted = false
  /// When the venue last sent something to the client.
  private var lastPush: Duration = .zero
  /// The synthetic stream sends without an instant: noted here, and counted at the deadline.
  private var pushedUntimed = false
  private var closed = false
  private let listed: Set<String>
  private let acceptAnySymbol: Bool
  /// The latest fills per coin that went by on this connection (any coin), for back-fills.
  private var recent: [String: [JSONObject]] = [:]
  /// The script's last fill per coin (where the synthetic stream starts).
  private var scriptLatest: [String: JSONObject] = [:]

  /// How many recent fills a back-fill carries at most.
  static let backFillLength = 10

  /// Perpetuals listed besides those the script trades.
  static let listedCoins: Set<String> = [
    "BTC", "ETH", "SOL", "HYPE", "XRP", "DOGE", "BNB", "AVAX", "LINK", "SUI", "ADA", "LTC", "TRX", "TON",
    "ARB", "OP", "APT", "NEAR", "DOT", "BCH", "AAVE", "kPEPE", "kSHIB", "kBONK",
  ]

  init(script: SessionScript, rules: HyperliquidRules, acceptAnySymbol: Bool = false) {
    self.rules = rules
    self.acceptAnySymbol = acceptAnySymbol
    rate = RateWindow(limit: rules.messagesPerWindow, window: .seconds(fractional: rules.messageWindow))
    var listed = Self.listedCoins
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      for fill in HyperliquidWire.fills(step.body) {
        guard let coin = fill["coin"]?.stringValue else { continue }
        listed.insert(coin)
        scriptLatest[coin] = fill
      }
    }
    self.listed = listed
  }

  /// Whether `coin` is a coin of Hyperliquid's shape (`BTC`, `kPEPE`).
  static func isWellFormed(_ coin: String) -> Bool {
    HyperliquidProvider().canonicalSymbol(coin) == .success(coin)
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
    guard rate.admit(at: now) else {
      return push([HyperliquidWire.error(HyperliquidWire.Refusal.tooManyMessages.message)], at: now)
        + [.violation(.tooManyMessages)]
    }
    switch HyperliquidRequest.parse(text) {
    case .failure(let refusal): return refuse(refusal, at: now)
    case .success(.ping): return push([HyperliquidWire.pong], at: now)
    case .success(.subscription(let method, let type, let coin, let echo)):
      requestCount += 1
      guard type == "trades" || type == "bbo", let coin, isListed(coin) else {
        return refuse(.invalid(subscription: echo), at: now)
      }
      if type == "bbo" { return bbo(method, coin, echo: echo, at: now) }
      return method == "subscribe"
        ? subscribe(coin, echo: echo, at: now) : unsubscribe(coin, echo: echo, at: now)
    }
  }

  /// The error refusing a request; nothing changes.
  private mutating func refuse(_ refusal: HyperliquidWire.Refusal, at now: Duration) -> [EmulatorAction] {
    push([HyperliquidWire.error(refusal.message)], at: now) + [.violation(.invalidRequest(refusal.message))]
  }

  /// The answer, then the coin's back-fill when trades of it went by.
  private mutating func subscribe(_ coin: String, echo: String, at now: Duration) -> [EmulatorAction] {
    guard !coins.contains(coin) else { return refuse(.alreadySubscribed(subscription: echo), at: now) }
    guard coins.count < rules.subscriptionLimit else {
      return refuse(.tooManySubscriptions(subscription: echo), at: now)
    }
    coins.append(coin)
    var texts = [HyperliquidWire.answer("subscribe", coin: coin)]
    if let fills = recent[coin], !fills.isEmpty { texts.append(HyperliquidWire.trades(fills)) }
    return push(texts, at: now)
  }

  private mutating func unsubscribe(_ coin: String, echo: String, at now: Duration) -> [EmulatorAction] {
    guard let index = coins.firstIndex(of: coin) else {
      return refuse(.alreadyUnsubscribed(subscription: echo), at: now)
    }
    coins.remove(at: index)
    return push([HyperliquidWire.answer("unsubscribe", coin: coin)], at: now)
  }

  /// A `bbo` subscribe or unsubscribe: answered as trades' are, without a back-fill.
  private mutating func bbo(_ method: String, _ coin: String, echo: String, at now: Duration)
    -> [EmulatorAction]
  {
    if method == "subscribe" {
      guard !bboCoins.contains(coin) else { return refuse(.alreadySubscribed(subscription: echo), at: now) }
      guard coins.count + bboCoins.count < rules.subscriptionLimit else {
        return refuse(.tooManySubscriptions(subscription: echo), at: now)
      }
      bboCoins.append(coin)
    } else {
      guard let index = bboCoins.firstIndex(of: coin) else {
        return refuse(.alreadyUnsubscribed(subscription: echo), at: now)
      }
      bboCoins.remove(at: index)
    }
    return push([HyperliquidWire.answer(method, coin: coin, type: "bbo")], at: now)
  }

  /// The `bbo` messages around `fills` of the coins whose bbo is subscribed.
  private func bbos(_ fills: [JSONObject]) -> [String] {
    fills.compactMap { fill in
      guard let coin = fill["coin"]?.stringValue, bboCoins.contains(coin),
        let cents = fill["px"]?.stringValue.flatMap(SyntheticTrades.parseCents),
        let time = fill["time"]?.numberText.flatMap({ Int64($0) })
      else { return nil }
      let size = fill["sz"]?.stringValue.flatMap(SyntheticTrades.parseVolume) ?? 100
      let trade = SyntheticTrade(symbol: coin, cents: cents, time: time, volume: size, up: true)
      return HyperliquidWire.bbo(coin: coin, book: trade.book, time: time)
    }
  }

  private func isListed(_ coin: String) -> Bool {
    listed.contains(coin) || (acceptAnySymbol && Self.isWellFormed(coin))
  }

  /// `texts` as text frames, sent at `now`.
  private mutating func push(_ texts: [String], at now: Duration) -> [EmulatorAction] {
    if !texts.isEmpty { lastPush = now }
    return texts.map { .text($0) }
  }

  /// Remembers `fills` as the latest of their coins (the back-fill of a later subscription).
  private mutating func remember(_ fills: [JSONObject]) {
    for fill in fills {
      guard let coin = fill["coin"]?.stringValue else { continue }
      var fills = recent[coin] ?? []
      fills.append(fill)
      if fills.count > Self.backFillLength { fills.removeFirst() }
      recent[coin] = fills
    }
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    switch step.kind {
    case .text, .binary:
      if step.body == HyperliquidWire.greeting { return [] }
      guard let value = try? JSONParser().parse(step.body) else { return push([step.body], at: now) }
      switch value["channel"]?.stringValue {
      case "subscriptionResponse", "error", "pong":
        // Answers to what the script's client said: made here.
        return []
      case "trades":
        let fills = HyperliquidWire.fills(step.body)
        remember(fills)
        let kept = fills.filter { $0["coin"]?.stringValue.map(coins.contains) == true }
        var texts = kept.isEmpty ? [] : [kept.count == fills.count ? step.body : HyperliquidWire.trades(kept)]
        // The block's last fill is where its book was left.
        if let last = fills.last { texts += bbos([last]) }
        return push(texts, at: now)
      default:
        return push([step.body], at: now)
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

  mutating func tick(at now: Duration) -> [EmulatorAction] {
    if closed { return [] }
    var actions: [EmulatorAction] = []
    if !greeted {
      greeted = true
      actions += push([HyperliquidWire.greeting], at: now)
    }
    guard let deadline = idleDeadline, deadline <= now else { return actions }
    if pushedUntimed {
      // The synthetic stream sent since the last deadline, at instants it does not give: as if
      // now (which can only give the client more time, never less).
      pushedUntimed = false
      lastPush = now
      return actions
    }
    closed = true
    return actions + [.violation(.idle), .close(CloseStatus(code: .goingAway, reason: "idle"))]
  }

  /// When the connection is closed unless the venue sends something first.
  private var idleDeadline: Duration? {
    rules.idleTimeout.map { lastPush + .seconds(fractional: $0) }
  }

  var nextDeadline: Duration? {
    if closed { return nil }
    return earliest(greeted ? nil : .zero, idleDeadline)
  }

  var isClosing: Bool { closed }

  func isReady(awaiting: Int) -> Bool {
    subscribed.count >= max(1, awaiting) || requestCount >= max(1, awaiting)
  }

  /// Coins of trades, then coins of bbo not among them.
  var subscribed: [String] { coins + bboCoins.filter { !coins.contains($0) } }

  var lastPrices: [String: (price: String, time: Int64)] {
    var prices: [String: (price: String, time: Int64)] = [:]
    var latest = scriptLatest
    for (coin, fills) in recent { if let last = fills.last { latest[coin] = last } }
    for (coin, fill) in latest {
      guard let price = fill["px"]?.stringValue, let time = fill["time"]?.numberText.flatMap({ Int64($0) })
      else { continue }
      prices[coin] = (price, time)
    }
    return prices
  }

  /// One `trades` message per trade of a subscribed coin (a block of one fill).
  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    if closed { return [] }
    var actions: [EmulatorAction] = []
    for trade in trades {
      let fill = HyperliquidWire.fill(trade)
      remember([fill])
      if coins.contains(trade.symbol) {
        pushedUntimed = true
        actions.append(.text(HyperliquidWire.trades([fill])))
      }
      if bboCoins.contains(trade.symbol) {
        pushedUntimed = true
        actions.append(.text(HyperliquidWire.bbo(coin: trade.symbol, book: trade.book, time: trade.time)))
      }
    }
    return actions
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { nil }

  /// Any coin of Hyperliquid's shape (`XLM`).
  func walkStart(for symbol: String) -> WalkStart? { Self.isWellFormed(symbol) ? .dollars : nil }
}

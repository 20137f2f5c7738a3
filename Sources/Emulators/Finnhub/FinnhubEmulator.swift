import JSON
import Recording
import Venues
import WebSocketServer

/// What Finnhub does with a connection, as a pure state machine: remembers subscriptions,
/// answers a subscribe to an unknown symbol with `Invalid symbol`, and filters trade messages to
/// the subscribed symbols. Known symbols are the ones the script trades; with `acceptAnySymbol`
/// (the demo) every well-formed symbol is accepted too.
struct FinnhubEmulator: VenueEmulator {
  let knownSymbols: Set<String>
  /// Whether a subscribe to any well-formed symbol (`isWellFormed`) is accepted, not only to the
  /// known ones.
  let acceptAnySymbol: Bool
  /// Last scripted price text and trade time per symbol (the synthetic stream starts there).
  let lastTrades: [String: (price: String, time: Int64)]
  private(set) var subscriptions: [String] = []
  /// Subscribe messages received, valid or not.
  private(set) var subscribeRequests = 0
  /// Subscribe and unsubscribe messages received, valid or not.
  private(set) var requestCount = 0

  /// - Parameters:
  ///   - extraSymbols: symbols to accept besides those the script trades (e.g. the symbol of a
  ///     `.blast` ending).
  ///   - acceptAnySymbol: accept every well-formed symbol, as the demo does.
  init(script: SessionScript, extraSymbols: [String] = [], acceptAnySymbol: Bool = false) {
    self.acceptAnySymbol = acceptAnySymbol
    var known = Set<String>(extraSymbols)
    var last: [String: (price: String, time: Int64)] = [:]
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let entries = (try? JSONParser().parse(step.body))?["data"]?.arrayValue else { continue }
      for entry in entries {
        guard let symbol = entry["s"]?.stringValue else { continue }
        known.insert(symbol)
        if let price = entry["p"]?.numberText, let time = entry["t"]?.numberText.flatMap({ Int64($0) }),
          time >= last[symbol]?.time ?? .min
        {
          last[symbol] = (price, time)
        }
      }
    }
    knownSymbols = known
    lastTrades = last
  }

  var subscriptionCount: Int { subscriptions.count }
  var subscribedKnownSymbols: [String] { subscriptions.filter { knownSymbols.contains($0) } }

  /// Handles one client text message; returns the messages to send back.
  mutating func receive(clientText: String) -> [String] {
    guard let message = try? JSONParser().parse(clientText), let type = message["type"]?.stringValue else {
      return [Self.error("Invalid message")]
    }
    if type == "subscribe" || type == "unsubscribe" { requestCount += 1 }
    guard let symbol = message["symbol"]?.stringValue else {
      return type == "subscribe" || type == "unsubscribe" ? [Self.error("Missing symbol")] : []
    }
    switch type {
    case "subscribe":
      subscribeRequests += 1
      guard knownSymbols.contains(symbol) || (acceptAnySymbol && Self.isWellFormed(symbol)) else {
        return [Self.error("Invalid symbol \(symbol)")]
      }
      if !subscriptions.contains(symbol) { subscriptions.append(symbol) }
      return []
    case "unsubscribe":
      subscriptions.removeAll { $0 == symbol }
      return []
    default:
      return []
    }
  }

  /// The scripted server message as this connection should get it: trades filtered to the
  /// subscribed symbols (nil when none is left); scripted errors dropped (this emulator makes
  /// its own); everything else unchanged.
  func outgoing(_ body: String) -> String? {
    guard let message = try? JSONParser().parse(body), case .object(let object) = message else { return body }
    switch object["type"]?.stringValue {
    case "trade":
      guard let entries = object["data"]?.arrayValue else { return body }
      let kept = entries.filter { entry in entry["s"]?.stringValue.map(subscriptions.contains) ?? false }
      if kept.isEmpty { return nil }
      if kept.count == entries.count { return body }
      var filtered = object
      filtered["data"] = .array(kept)
      return JSONValue.object(filtered).serialized
    case "error":
      return nil
    default:
      return body
    }
  }

  func syntheticTrades(seed: UInt64) -> SyntheticTrades {
    SyntheticTrades(seed: seed, start: lastTrades)
  }

  /// A symbol Finnhub could list: not empty, no control characters (Finnhub's symbols are
  /// free-form otherwise: `AAPL`, `BINANCE:BTCUSDT`, `IC MARKETS:1`).
  static func isWellFormed(_ symbol: String) -> Bool {
    !symbol.isEmpty && !symbol.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  static func error(_ text: String) -> String {
    #"{"msg":\#(JSONEscaping.quoted(text)),"type":"error"}"#
  }

  /// One trade message carrying `trades`.
  static func message(_ trades: [SyntheticTrade]) -> String {
    var out: [UInt8] = []
    FinnhubWire.appendTradeMessage(to: &out) { out in
      for (index, trade) in trades.enumerated() {
        if index > 0 { out.append(FinnhubWire.separator) }
        FinnhubWire.appendTrade(
          price: SyntheticTrades.format(cents: trade.cents).utf8, symbol: trade.symbol, time: trade.time,
          volume: SyntheticTrades.format(volume: trade.volume, places: 5).utf8, to: &out)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: VenueEmulator

  func admit(_ request: ServerHandshake.Request) -> Admission { .accept }

  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction] {
    guard case .text(let text) = input else { return [] }
    return receive(clientText: text).map(EmulatorAction.text)
  }

  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction] {
    switch step.kind {
    case .text: outgoing(step.body).map { [.text($0)] } ?? []
    case .binary: outgoing(step.body).map { [.binary($0)] } ?? []
    case .ping: [.ping(Array(step.body.utf8.prefix(125)))]
    case .close: [.close(SessionScript.closeStatus(step.body))]
    case .http, .raw: []
    }
  }

  func tick(at now: Duration) -> [EmulatorAction] { [] }
  var nextDeadline: Duration? { nil }
  var isClosing: Bool { false }
  func isReady(awaiting: Int) -> Bool { subscribeRequests >= max(1, awaiting) }
  var subscribed: [String] { subscriptions }
  var lastPrices: [String: (price: String, time: Int64)] { lastTrades }

  func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction] {
    trades.isEmpty ? [] : [.text(Self.message(trades))]
  }

  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { (.text(#"{"type":"ping"}"#), 60) }

  func walkStart(for symbol: String) -> WalkStart? { Self.isWellFormed(symbol) ? .dollars : nil }
}

extension JSONValue {
  /// Compact JSON text; numbers are written exactly as parsed.
  var serialized: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let text): return text
    case .string(let s): return JSONEscaping.quoted(s)
    case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
    case .object(let object):
      return "{"
        + object.members.map { JSONEscaping.quoted($0.key) + ":" + $0.value.serialized }
        .joined(separator: ",") + "}"
    }
  }
}

import JSON
import Venues

/// The recorded sessions `ticker --demo` replays, one per venue (the same text as
/// `Tests/Fixtures/<venue>-session.ndjson`; a test keeps them equal). Embedded so the demo needs
/// no files, no token and no internet.
public enum DemoSession {
  public static let finnhub = #"""
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"{\"type\":\"subscribe\",\"symbol\":\"BINANCE:BTCUSDT\"}"}
    {"dir":"S>","kind":"text","after_ms":320,"body":"{\"data\":[{\"c\":null,\"p\":95372.09,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655932976,\"v\":0.00063},{\"c\":null,\"p\":95372.1,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933296,\"v\":0.00058}],\"type\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":40,"body":"{\"data\":[{\"c\":null,\"p\":95372.1,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933296,\"v\":0.00058}],\"type\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":110,"body":"{\"data\":[{\"p\":95371.85,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933402,\"v\":0.0121,\"c\":[]},{\"c\":null,\"p\":95371.9,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933390,\"v\":0.002}],\"type\":\"trade\"}"}
    {"dir":"C>","kind":"text","after_ms":50,"body":"{\"type\":\"subscribe\",\"symbol\":\"AAPL\"}"}
    {"dir":"S>","kind":"text","after_ms":90,"body":"{\"data\":[{\"c\":[\"1\",\"8\",\"24\",\"12\"],\"p\":122.1,\"s\":\"AAPL\",\"t\":1768655933500,\"v\":1},{\"c\":[\"1\",\"24\",\"12\"],\"p\":122.09,\"s\":\"AAPL\",\"t\":1768655933501,\"v\":4},{\"c\":null,\"p\":95372.3,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933510,\"v\":0.0009}],\"type\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":26900,"body":"{\"type\":\"ping\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"subscribe\",\"symbol\":\"BINANCE:NOPEUSDT\"}"}
    {"dir":"S>","kind":"text","after_ms":60,"body":"{\"msg\":\"Invalid symbol BINANCE:NOPEUSDT\",\"type\":\"error\"}"}
    {"dir":"S>","kind":"text","after_ms":400,"body":"{\"data\":[{\"c\":null,\"p\":95380,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655961000,\"v\":0}],\"type\":\"trade\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"unsubscribe\",\"symbol\":\"AAPL\"}"}
    {"dir":"S>","kind":"text","after_ms":60000,"body":"{\"type\":\"ping\"}"}
    """#

  public static let upbit = #"""
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"[{\"ticket\":\"ticker-1\"},{\"type\":\"ticker\",\"codes\":[\"KRW-BTC\"]},{\"format\":\"SIMPLE\"}]"}
    {"dir":"S>","kind":"binary","after_ms":180,"body":"{\"ty\":\"ticker\",\"cd\":\"KRW-BTC\",\"op\":102158000.0,\"hp\":103708000.0,\"lp\":100795000.0,\"tp\":103160000.0,\"pcp\":102103000.0,\"atp\":86970405555.45227,\"c\":\"RISE\",\"cp\":1057000.0,\"scp\":1057000.0,\"cr\":0.0103522913,\"scr\":0.0103522913,\"ab\":\"BID\",\"tv\":0.0005,\"atv\":851.82334868,\"tdt\":\"20260216\",\"ttm\":\"131654\",\"ttms\":1771247814642,\"aav\":412.37969677,\"abv\":439.44365191,\"h52wp\":179869000.0,\"h52wdt\":\"2025-10-09\",\"l52wp\":89000000.0,\"l52wdt\":\"2026-02-06\",\"ms\":\"ACTIVE\",\"its\":false,\"dd\":null,\"mw\":\"NONE\",\"tms\":1771247816255,\"atp24h\":157810722200.7429,\"atv24h\":1547.96784012,\"st\":\"SNAPSHOT\"}"}
    {"dir":"S>","kind":"binary","after_ms":460,"body":"{\"ty\":\"ticker\",\"cd\":\"KRW-BTC\",\"op\":102158000.0,\"hp\":103708000.0,\"lp\":100795000.0,\"tp\":1.03156E8,\"pcp\":102103000.0,\"atp\":86970456133.1,\"c\":\"RISE\",\"cp\":1053000.0,\"scp\":1053000.0,\"cr\":0.0103131152,\"scr\":0.0103131152,\"ab\":\"ASK\",\"tv\":4.9E-4,\"atv\":851.82383868,\"tdt\":\"20260216\",\"ttm\":\"131655\",\"ttms\":1771247815101,\"aav\":412.38018677,\"abv\":439.44365191,\"h52wp\":179869000.0,\"h52wdt\":\"2025-10-09\",\"l52wp\":89000000.0,\"l52wdt\":\"2026-02-06\",\"ms\":\"ACTIVE\",\"its\":false,\"dd\":null,\"mw\":\"NONE\",\"tms\":1771247815140,\"atp24h\":157810772778.3,\"atv24h\":1547.96833012,\"st\":\"REALTIME\"}"}
    {"dir":"C>","kind":"text","after_ms":20000,"body":"PING"}
    {"dir":"S>","kind":"binary","after_ms":30,"body":"{\"status\":\"UP\"}"}
    {"dir":"S>","kind":"binary","after_ms":10000,"body":"{\"status\":\"UP\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"ticker\",\"codes\":[\"KRW-BTC\"]}"}
    {"dir":"S>","kind":"binary","after_ms":40,"body":"{\"error\":{\"message\":\"Format 이 맞지 않습니다.\",\"name\":\"WRONG_FORMAT\"}}"}
    {"dir":"S>","kind":"close","after_ms":150,"body":"1000"}
    """#

  public static let binance = #"""
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"S>","kind":"text","after_ms":200,"body":"{\"stream\":\"btcusdt@trade\",\"data\":{\"e\":\"trade\",\"E\":1789404776251,\"s\":\"BTCUSDT\",\"t\":5206081234,\"p\":\"78860.00000000\",\"q\":\"0.00009000\",\"T\":1789404776250,\"m\":true,\"M\":true}}"}
    {"dir":"S>","kind":"ping","after_ms":3700,"body":"1789404780000"}
    {"dir":"C>","kind":"text","after_ms":20,"body":"{\"method\":\"SUBSCRIBE\",\"params\":[\"ethusdt@trade\"],\"id\":1}"}
    {"dir":"S>","kind":"text","after_ms":30,"body":"{\"result\":null,\"id\":1}"}
    {"dir":"C>","kind":"text","after_ms":50,"body":"{\"method\":\"SUBSCRIBE\",\"params\":[\"@@@bad###\"],\"id\":2}"}
    {"dir":"S>","kind":"text","after_ms":30,"body":"{\"error\":{\"code\":2,\"msg\":\"Invalid request: invalid stream\"},\"id\":2}"}
    {"dir":"S>","kind":"close","after_ms":10,"body":"1008"}
    """#

  public static let coinbase = #"""
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"{\"type\":\"subscribe\",\"product_ids\":[\"BTC-USD\"],\"channels\":[\"ticker\"]}"}
    {"dir":"S>","kind":"text","after_ms":80,"body":"{\"type\":\"subscriptions\",\"channels\":[{\"name\":\"ticker\",\"product_ids\":[\"BTC-USD\"]}]}"}
    {"dir":"S>","kind":"text","after_ms":300,"body":"{\"type\":\"ticker\",\"sequence\":134905860112,\"product_id\":\"BTC-USD\",\"price\":\"80691.53\",\"open_24h\":\"79850.00\",\"volume_24h\":\"8123.44120031\",\"low_24h\":\"79402.11\",\"high_24h\":\"81030.00\",\"volume_30d\":\"301122.77310000\",\"best_bid\":\"80691.52\",\"best_bid_size\":\"0.35000000\",\"best_ask\":\"80691.53\",\"best_ask_size\":\"0.01200000\",\"side\":\"buy\",\"time\":\"2026-08-25T03:35:57.198335Z\",\"trade_id\":1081862675,\"last_size\":\"0.00000001\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"subscribe\",\"product_ids\":[\"GIBBERISH-USD\"],\"channels\":[\"ticker\"]}"}
    {"dir":"S>","kind":"text","after_ms":60,"body":"{\"type\":\"error\",\"message\":\"Failed to subscribe\",\"reason\":\"GIBBERISH-USD is not a valid product\"}"}
    """#

  /// The recorded session of the provider named `name` (`finnhub`, `upbit`, `binance`,
  /// `coinbase`, as the ticker's `--provider` spells it), as NDJSON text; nil for any other name.
  public static func script(forProvider name: String) -> String? {
    Venue(provider: name).map(script(for:))
  }

  /// The symbols the recorded session of `venue` trades, in the order they first trade, spelled
  /// as `--symbol` takes them (Binance's `BTCUSDT`, not its stream name). Other symbols get a
  /// simulated walk in the demo (`FeedServer.Options.acceptAnySymbol`).
  public static func recordedSymbols(for venue: Venue) -> [String] {
    guard let script = try? SessionScript(ndjson: script(for: venue)) else { return [] }
    var symbols: [String] = []
    for step in script.steps where step.direction == .server && (step.kind == .text || step.kind == .binary) {
      guard let value = try? JSONParser().parse(step.body) else { continue }
      let traded: [String]
      switch venue {
      case .finnhub:
        let trades = value["type"]?.stringValue == "trade" ? value["data"]?.arrayValue ?? [] : []
        traded = trades.compactMap { $0["s"]?.stringValue }
      case .upbit:
        traded = UpbitTicker.simple(value)?["cd"]?.stringValue.map { [$0] } ?? []
      case .binance:
        traded = BinanceEmulator.trade(in: value)?.data["s"]?.stringValue.map { [$0] } ?? []
      case .coinbase:
        let product = value["type"]?.stringValue == "ticker" ? value["product_id"]?.stringValue : nil
        traded = product.map { [$0] } ?? []
      }
      for symbol in traded where !symbols.contains(symbol) { symbols.append(symbol) }
    }
    return symbols
  }

  /// The recorded session of `venue`, as NDJSON text.
  public static func script(for venue: Venue) -> String {
    switch venue {
    case .finnhub: finnhub
    case .upbit: upbit
    case .binance: binance
    case .coinbase: coinbase
    }
  }
}

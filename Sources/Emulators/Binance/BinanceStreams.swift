import TickerSupport

/// Binance's endpoints and stream names (docs/protocols.md §3): which request targets the venue
/// serves, which streams they name, and what a valid stream name is.
enum BinanceStreams {
  /// A request target that Binance serves: `/ws` or `/ws/<stream>[/<stream>…]` (raw payloads),
  /// `/stream` or `/stream?streams=<a>/<b>` (each payload wrapped with its stream name).
  struct Endpoint: Sendable, Equatable {
    var combined: Bool
    var streams: [String]
  }

  /// Why a target is refused at the upgrade.
  enum Refusal: Error, Sendable, Equatable {
    /// Not a path Binance serves (404).
    case unknownPath(String)
    /// A stream name that is not one (400).
    case invalidStream(String)
    /// More than `maximumStreams` (400).
    case tooManyStreams
  }

  /// Streams one connection may carry.
  static let maximumStreams = 1024

  static func endpoint(target: String) -> Result<Endpoint, Refusal> {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0])
    let query = parts.count == 2 ? String(parts[1]) : ""
    let endpoint: Endpoint
    if path == "/ws" || path == "/ws/" {
      endpoint = Endpoint(combined: false, streams: [])
    } else if path.hasPrefix("/ws/") {
      endpoint = Endpoint(
        combined: false, streams: path.dropFirst(4).split(separator: "/").map { percentDecoded(String($0)) })
    } else if path == "/stream" || path == "/stream/" {
      let value = query.split(separator: "&").first { $0.hasPrefix("streams=") }?.dropFirst("streams=".count)
      endpoint = Endpoint(
        combined: true, streams: (value ?? "").split(separator: "/").map { percentDecoded(String($0)) })
    } else {
      return .failure(.unknownPath(path))
    }
    if let bad = endpoint.streams.first(where: { !isValid($0) }) { return .failure(.invalidStream(bad)) }
    if endpoint.streams.count > maximumStreams { return .failure(.tooManyStreams) }
    var unique: [String] = []
    for stream in endpoint.streams where !unique.contains(stream) { unique.append(stream) }
    return .success(Endpoint(combined: endpoint.combined, streams: unique))
  }

  /// Event types of the per-symbol streams.
  static let eventTypes: Set<String> = [
    "trade", "aggTrade", "ticker", "miniTicker", "bookTicker", "avgPrice", "depth", "depth5", "depth10",
    "depth20", "ticker_1h", "ticker_4h", "ticker_1d",
  ]
  static let klineIntervals: Set<String> = [
    "1s", "1m", "3m", "5m", "15m", "30m", "1h", "2h", "4h", "6h", "8h", "12h", "1d", "3d", "1w", "1M",
  ]
  /// The all-market streams.
  static let marketStreams: Set<String> = [
    "!ticker@arr", "!miniTicker@arr", "!bookTicker", "!ticker_1h@arr", "!ticker_4h@arr", "!ticker_1d@arr",
  ]

  /// `<symbol>@<type>`: the symbol in lower-case letters and digits (Binance's stream names are
  /// lower case: `BTCUSDT@trade` is not one), a known event type, depth streams with an optional
  /// `@100ms`/`@1000ms`, klines as `kline_<interval>`; or an all-market stream.
  static func isValid(_ stream: String) -> Bool {
    if marketStreams.contains(stream) { return true }
    let parts = stream.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, let symbol = parts.first, !symbol.isEmpty,
      symbol.utf8.allSatisfy({
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (48...57).contains($0)
      })
    else { return false }
    let type = String(parts[1])
    if parts.count == 3 {
      return type.hasPrefix("depth") && eventTypes.contains(type)
        && (parts[2] == "100ms" || parts[2] == "1000ms")
    }
    if type.hasPrefix("kline_") { return klineIntervals.contains(String(type.dropFirst(6))) }
    return eventTypes.contains(type)
  }

  /// The stream a trade of `symbol` (as Binance's `s` writes it, `BTCUSDT`) belongs to.
  static func tradeStream(symbol: String) -> String { symbol.lowercased() + "@trade" }

  /// `%40` → `@` and the like; malformed escapes stay as they are.
  static func percentDecoded(_ text: String) -> String {
    // Stream names from the path or the `streams` query, read leniently: `+` is not a space, and
    // a malformed escape or bytes that are not UTF-8 leave a name no stream has (`isValid`
    // refuses it), so nothing needs refusing here.
    guard let bytes = PercentEncoding.decode(text, plus: .literal, malformed: .keptLiterally) else {
      return text
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

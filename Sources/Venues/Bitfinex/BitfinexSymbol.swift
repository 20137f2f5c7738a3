import JSON

/// How Bitfinex spells a trading pair (docs/protocols.md §11): `t` and the pair in upper case, its
/// two currencies run together when both have three letters (`tBTCUSD`) and joined by `:` when
/// either is longer (`tDOGE:USD`, `tTESTBTC:TESTUSD`). Bitfinex has codes of its own for some
/// currencies: `UST` is Tether's USDt (`tBTCUST` is BTC in USDT) and `UDC` is USDC.
enum BitfinexSymbol {
  /// Bitfinex's codes for currencies the rest of the world (and the board) names otherwise.
  static let commonNames: [String: String] = ["UST": "USDT", "UDC": "USDC"]

  /// The longest pair taken: Bitfinex's longest are about 20 characters (`tEUROPE50IXF0:USTF0`).
  static let longestPair = 40

  /// `t` and the pair in upper case (`btcusd`, `BTCUSD`, `tBTCUSD` → `tBTCUSD`), or why `symbol`
  /// cannot be a trading pair.
  static func canonical(_ symbol: String) -> Result<String, SymbolError> {
    let bytes = Array(symbol.utf8)
    if bytes.first == UInt8(ascii: "t"), bytes.count > 1 {
      let rest = bytes[1...]
      // `tBTCUSD`: a lower-case t before an upper-case pair is the prefix. `tbtcusd`: only when
      // the whole is no pair and the rest is (`trxusd` is TRX in USD).
      if isUpperOrDigit(bytes[1]) || (pair(bytes[...]) == nil && pair(rest) != nil) {
        if let pair = pair(rest) { return .success("t" + pair) }
        return .failure(notAPair(symbol, pair: rest))
      }
    }
    if bytes.first == UInt8(ascii: "f"), bytes.count > 1, isUpperOrDigit(bytes[1]) {
      return .failure(
        SymbolError(
          "\(JSONEscaping.quoted(symbol)) is a Bitfinex funding currency: the ticker follows trading "
            + "pairs, such as tBTCUSD"))
    }
    if let pair = pair(bytes[...]) { return .success("t" + pair) }
    return .failure(notAPair(symbol, pair: bytes[...]))
  }

  /// The pair in upper case when `bytes` is one: ASCII letters and digits, six of them, or two
  /// groups of at least three (a currency code's least) joined by one `:`.
  static func pair(_ bytes: ArraySlice<UInt8>) -> String? {
    guard (1...longestPair).contains(bytes.count) else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var colon: Int? = nil
    for (offset, b) in bytes.enumerated() {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"): out.append(b - 0x20)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(b)
      case UInt8(ascii: ":"):
        guard colon == nil, offset >= 3, offset <= bytes.count - 4 else { return nil }
        colon = offset
        out.append(b)
      default: return nil
      }
    }
    // Without a colon both currencies have three letters.
    guard colon != nil || out.count == 6 else { return nil }
    return String(decoding: out, as: UTF8.self)
  }

  private static func isUpperOrDigit(_ b: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
  }

  private static func notAPair(_ symbol: String, pair: ArraySlice<UInt8>) -> SymbolError {
    let shown = symbol.isEmpty ? "an empty symbol" : JSONEscaping.quoted(symbol)
    var message =
      "\(shown) is not a Bitfinex trading pair: a pair is t and two currencies, run together when "
      + "both have three letters (tBTCUSD) or joined by ':' (tDOGE:USD)"
    let upper = String(decoding: pair, as: UTF8.self).uppercased()
    if upper.hasSuffix("USDT") || upper.hasSuffix("USDC") {
      message += "; Bitfinex writes USDT as UST and USDC as UDC (tBTCUST)"
    }
    return SymbolError(message)
  }

  /// What a canonical symbol trades and in what (`tBTCUST` is BTC in USDT); nil for anything
  /// that is not `t` and a pair.
  static func market(of symbol: String) -> Market? {
    guard symbol.hasPrefix("t") else { return nil }
    let pair = symbol.dropFirst()
    let base: Substring
    let quote: Substring
    if let colon = pair.firstIndex(of: ":") {
      (base, quote) = (pair[..<colon], pair[pair.index(after: colon)...])
    } else {
      guard pair.utf8.count == 6 else { return nil }
      (base, quote) = (pair.prefix(3), pair.suffix(3))
    }
    guard !base.isEmpty, !quote.isEmpty, !quote.contains(":") else { return nil }
    return Market(base: commonName(base), quote: commonName(quote))
  }

  /// The board's name of a Bitfinex currency code (`UST` → `USDT`).
  static func commonName(_ code: Substring) -> String {
    commonNames[String(code)] ?? String(code)
  }

  /// Bitfinex's code for a currency the board names (`USDT` → `UST`).
  static func code(of currency: String) -> String {
    commonNames.first { $0.value == currency }?.key ?? currency
  }

  /// `asset` against the US dollar, Bitfinex's deepest quote: `tBTCUSD`, `tDOGE:USD`; nil for
  /// the dollar itself and for what is no currency code.
  static func mainMarket(for asset: String) -> String? {
    let upper = asset.uppercased()
    guard upper != "USD", !upper.isEmpty, upper.utf8.count <= longestPair / 2,
      upper.utf8.allSatisfy(isUpperOrDigit)
    else { return nil }
    let base = code(of: upper)
    return base.utf8.count == 3 ? "t\(base)USD" : "t\(base):USD"
  }
}

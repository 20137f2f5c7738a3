/// Upbit's `orderbook` message as the venue writes it, in SIMPLE or DEFAULT keys: the whole book
/// each time (15 units here), best first, numbers as Java's `Double.toString` writes them
/// (`1.4325E8`, `4.9E-4`), as Upbit's servers do. Bithumb's `orderbook` is the same message, its
/// numbers plain decimals (`javaNumbers` false), as Bithumb writes them.
enum UpbitOrderbookWire {
  /// Units a message carries.
  static let units = 15

  /// The book around `book` of `code` at `time`, with its stream type (`SNAPSHOT`, `REALTIME`).
  static func render(
    code: String, book: SyntheticBook, time: Int64, simple: Bool, streamType: String, javaNumbers: Bool = true
  ) -> String {
    let key: (String, String) -> String = { simple ? $0 : $1 }
    let price: (Int64) -> String = { javaNumbers ? Self.price(cents: $0) : SyntheticTrades.format(cents: $0) }
    let size: (Int) -> String = { javaNumbers ? Self.size($0) : Self.plainSize($0) }
    let step = max(1, book.askCents - book.bidCents)
    var unitsText: [String] = []
    var askTotal = 0
    var bidTotal = 0
    for level in 0..<units {
      let bidCents = book.bidCents - Int64(level) * step
      guard bidCents > 0 else { break }
      let askCents = book.askCents + Int64(level) * step
      let askSize = level == 0 ? book.askSize : 1 + (book.askSize * (level + 3)) % 5000
      let bidSize = level == 0 ? book.bidSize : 1 + (book.bidSize * (level + 5)) % 5000
      askTotal += askSize
      bidTotal += bidSize
      unitsText.append(
        #"{"\#(key("ap", "ask_price"))":\#(price(askCents)),"\#(key("bp", "bid_price"))":"#
          + #"\#(price(bidCents)),"\#(key("as", "ask_size"))":\#(size(askSize)),"#
          + #""\#(key("bs", "bid_size"))":\#(size(bidSize))}"#)
    }
    return #"{"\#(key("ty", "type"))":"orderbook","\#(key("cd", "code"))":"\#(code)","#
      + #""\#(key("tms", "timestamp"))":\#(time),"\#(key("tas", "total_ask_size"))":\#(size(askTotal)),"#
      + #""\#(key("tbs", "total_bid_size"))":\#(size(bidTotal)),"#
      + #""\#(key("obu", "orderbook_units"))":[\#(unitsText.joined(separator: ","))],"#
      + #""\#(key("st", "stream_type"))":"\#(streamType)","\#(key("lv", "level"))":0}"#
  }

  /// A price in hundredths as a Java double: whole won as `UpbitTicker.javaDouble` writes them
  /// (`1.4325E8`, `5123000.0`), others with their decimals (`1432.5`).
  static func price(cents: Int64) -> String {
    if cents % 100 == 0 { return UpbitTicker.javaDouble(cents / 100) }
    return SyntheticTrades.format(cents: cents)
  }

  /// A size in hundred-thousandths as a plain decimal without trailing zeros (`49` → `0.00049`).
  static func plainSize(_ hundredThousandths: Int) -> String {
    var text = SyntheticTrades.format(volume: hundredThousandths, places: 5)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// A size in hundred-thousandths as a Java double: below 10⁻³ in exponent form (`49` →
  /// `4.9E-4`), else plainly (`0.0123`, `1.5`).
  static func size(_ hundredThousandths: Int) -> String {
    guard hundredThousandths > 0 else { return "0.0" }
    guard hundredThousandths < 100 else {
      var text = SyntheticTrades.format(volume: hundredThousandths, places: 5)
      while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
      return text
    }
    let digits = String(hundredThousandths)
    var mantissa = String(digits.dropFirst())
    while mantissa.hasSuffix("0") { mantissa.removeLast() }
    return "\(digits.prefix(1)).\(mantissa.isEmpty ? "0" : mantissa)E\(digits.count - 6)"
  }
}

import Venues

/// A condition on one symbol's price, for `--alert` and `--until`:
///
/// | written | holds when the price is |
/// |---|---|
/// | `SYM>100000`, `SYM>=100000` | above (or at) the threshold |
/// | `SYM<90000`, `SYM<=90000` | below (or at) it |
/// | `SYM+2%` | at least 2 % above the first price this run received for the symbol |
/// | `SYM-2%` | at least 2 % below it |
/// | `SYM±2%` (or `SYM+-2%`) | at least 2 % away from it, either way |
///
/// Symbols may hold `-`, `+`, `<` and the like (`KRW-BTC`, `BTC-USD`), so the text is read from
/// the right: the number, then the operator before it, and everything before that is the symbol.
/// Spaces around the operator are allowed. Thresholds and percentages are exact decimals, compared
/// with the digits the venue sent — never binary floating point.
///
/// In a run of the best bid and ask (`--bid-ask`) a condition names its side: `SYM.bid>70000`,
/// `SYM.ask<60000`, `SYM.ask±1%` (a move from the side's first price).
public struct AlertCondition: Sendable, Hashable, CustomStringConvertible {
  public enum Test: Sendable, Hashable {
    case above(Price, inclusive: Bool)
    case below(Price, inclusive: Bool)
    /// A move of at least `percent` from the start; `up`/`down` say which directions count.
    case move(percent: ExactDecimal, up: Bool, down: Bool)
  }

  /// Which side of a top-of-book quote a condition watches.
  public enum Side: String, Sendable, Hashable {
    case bid, ask
  }

  public var symbol: String
  public var test: Test
  /// The side it watches, written `SYM.bid` or `SYM.ask`; nil for a trade's price.
  public var side: Side?

  public init(symbol: String, test: Test, side: Side? = nil) {
    self.symbol = symbol
    self.test = test
    self.side = side
  }

  /// The price of `quote` this condition judges: its side's, or the trade's; nil when the quote
  /// has no such price (a side of a trade, a trade's price of a book).
  public func price(of quote: Quote) -> Price? {
    switch side {
    case nil: quote.ask == nil ? quote.price : nil
    case .bid?: quote.ask == nil ? nil : quote.price
    case .ask?: quote.ask?.price
    }
  }

  /// What a valid condition looks like, for error messages and help.
  public static let grammar =
    "SYM>PRICE, SYM>=PRICE, SYM<PRICE, SYM<=PRICE, or a move from the first price: SYM+N%, SYM-N%, SYM±N% "
    + "(with --bid-ask, SYM.bid or SYM.ask for SYM)"

  /// The condition, or why `text` is not one.
  public static func parse(_ text: String) -> Result<AlertCondition, AlertConditionError> {
    let trimmed = text.trimmingSpaces
    guard !trimmed.isEmpty else { return .failure(.empty) }
    var scalars = Array(trimmed.unicodeScalars)
    let isPercent = scalars.last == "%"
    if isPercent {
      scalars.removeLast()
      while scalars.last == " " { scalars.removeLast() }
    }
    let numberText = takeNumber(from: &scalars)
    guard !numberText.isEmpty else { return .failure(.noNumber(trimmed)) }
    guard let op = takeOperator(from: &scalars, isPercent: isPercent) else {
      return .failure(isPercent ? .noMoveSign(trimmed) : .noComparison(trimmed))
    }
    while scalars.last == " " { scalars.removeLast() }
    let symbol = String(String.UnicodeScalarView(scalars))
    guard !symbol.isEmpty else { return .failure(.noSymbol(trimmed)) }
    // `BTC>>1`, `BTC=>1`, `BTC+±2%`: an operator no condition has.
    if symbol.unicodeScalars.contains(where: { "<>=±".unicodeScalars.contains($0) })
      || (isPercent && (symbol.hasSuffix("+") || symbol.hasSuffix("-")))
    {
      return .failure(.badOperator(trimmed))
    }
    let (name, side) = Self.side(of: symbol)
    guard !name.isEmpty else { return .failure(.noSymbol(trimmed)) }
    return test(op, numberText, in: trimmed).map { AlertCondition(symbol: name, test: $0, side: side) }
  }

  /// `SYM.bid` and `SYM.ask` (either case) split into the symbol and its side.
  private static func side(of symbol: String) -> (String, Side?) {
    let lower = symbol.lowercased()
    for side in [Side.bid, .ask] where lower.hasSuffix("." + side.rawValue) {
      return (String(symbol.dropLast(4)), side)
    }
    return (symbol, nil)
  }

  /// The number at the end of `scalars` (digits and at most one point, read from the right),
  /// taken off with the spaces before it.
  private static func takeNumber(from scalars: inout [Unicode.Scalar]) -> String {
    var numberStart = scalars.count
    while numberStart > 0, ("0"..."9").contains(scalars[numberStart - 1]) || scalars[numberStart - 1] == "." {
      numberStart -= 1
    }
    let numberText = String(String.UnicodeScalarView(scalars[numberStart...]))
    scalars.removeSubrange(numberStart...)
    while scalars.last == " " { scalars.removeLast() }
    return numberText
  }

  /// The operator at the end of `scalars`, taken off: the longest spelling that fits.
  private static func takeOperator(from scalars: inout [Unicode.Scalar], isPercent: Bool) -> Operator? {
    let operators: [(String, Operator)] =
      isPercent
      ? [("+-", .either), ("±", .either), ("+", .up), ("-", .down)]
      : [(">=", .atLeast), ("<=", .atMost), (">", .above), ("<", .below)]
    for (spelling, op) in operators {
      let spelled = Array(spelling.unicodeScalars)
      if scalars.count >= spelled.count, Array(scalars.suffix(spelled.count)) == spelled {
        scalars.removeLast(spelled.count)
        return op
      }
    }
    return nil
  }

  /// What `op` tests with the number `numberText` (of the condition `condition`): a threshold
  /// price, or a percentage move that must be more than 0.
  private static func test(_ op: Operator, _ numberText: String, in condition: String)
    -> Result<Test, AlertConditionError>
  {
    switch op {
    case .above, .atLeast, .below, .atMost:
      guard let price = Price(numberText), ExactDecimal(price) != nil else {
        return .failure(.badNumber(numberText))
      }
      let threshold: Test =
        switch op {
        case .above: .above(price, inclusive: false)
        case .atLeast: .above(price, inclusive: true)
        case .below: .below(price, inclusive: false)
        default: .below(price, inclusive: true)
        }
      return .success(threshold)
    case .up, .down, .either:
      guard let percent = ExactDecimal(numberText), numberText.first != ".", numberText.last != "." else {
        return .failure(.badNumber(numberText))
      }
      guard percent > ExactDecimal(mantissa: 0, scale: 0) else { return .failure(.zeroMove(condition)) }
      return .success(.move(percent: percent, up: op != .down, down: op != .up))
    }
  }

  private enum Operator { case above, atLeast, below, atMost, up, down, either }

  /// The condition as a person writes it (`BINANCE:BTCUSDT>100000`, `BTC-USD±2%`).
  public var description: String {
    let symbol = side.map { self.symbol + "." + $0.rawValue } ?? self.symbol
    return switch test {
    case .above(let price, let inclusive): symbol + (inclusive ? ">=" : ">") + price.text
    case .below(let price, let inclusive): symbol + (inclusive ? "<=" : "<") + price.text
    case .move(let percent, let up, let down):
      symbol + (up && down ? "±" : up ? "+" : "-") + percent.description + "%"
    }
  }

  /// Whether the condition holds for `price`, given the symbol's first price `start` (needed
  /// only by moves; a move never holds before there is a start).
  public func holds(price: Price, start: Price?) -> Bool {
    switch test {
    case .above(let threshold, let inclusive): return inclusive ? price >= threshold : price > threshold
    case .below(let threshold, let inclusive): return inclusive ? price <= threshold : price < threshold
    case .move(let percent, let up, let down):
      guard let start else { return false }
      // price ≥ start × (100 + p) / 100  ⇔  price × 100 ≥ start × (100 + p), all exact.
      let hundred = ExactDecimal(mantissa: 100, scale: 0)
      guard let p = ExactDecimal(price), let s = ExactDecimal(start),
        let scaledPrice = p * hundred,
        let upFactor = ExactDecimal.sum(hundred, percent), let downFactor = hundred - percent,
        let upLine = s * upFactor, let downLine = s * downFactor
      else {
        // Beyond 37 digits: as close as Double gets.
        let change = (price.value - start.value) / start.value * 100
        let limit = percent.doubleValue
        return (up && change >= limit) || (down && -change >= limit)
      }
      return (up && scaledPrice >= upLine) || (down && scaledPrice <= downLine)
    }
  }
}

/// Why a condition could not be read.
public enum AlertConditionError: Error, Sendable, Equatable, CustomStringConvertible {
  case empty
  case noNumber(String)
  case noComparison(String)
  case noMoveSign(String)
  case noSymbol(String)
  case badNumber(String)
  case zeroMove(String)
  case badOperator(String)

  public var description: String {
    switch self {
    case .empty: "the condition is empty"
    case .noNumber: "it does not end with a price or a percentage"
    case .noComparison: "no >, >=, < or <= before the price"
    case .noMoveSign: "no +, - or ± before the percentage"
    case .noSymbol: "no symbol before the operator"
    case .badNumber(let text): "\"\(text)\" is not a plain decimal number"
    case .zeroMove: "a move must be more than 0%"
    case .badOperator: "the operator must be one of >, >=, <, <=, +, -, ± or +-"
    }
  }
}

extension ExactDecimal {
  /// `a + b`, or nil when it does not fit.
  static func sum(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal? {
    guard let (x, y, scale) = aligned(a, b) else { return nil }
    let (total, overflow) = x.addingReportingOverflow(y)
    return overflow ? nil : ExactDecimal(mantissa: total, scale: scale)
  }
}

import Venues

/// The alerts of a run (`--alert`, and `--until`, whose first firing ends the run), judged on
/// every quote received — before debounce and dedupe, so a spike that lasts one trade still
/// counts. A rule fires when its condition becomes true: on the first quote that meets it, and
/// again only after a quote that did not. Pure: the feed machine calls it with each batch.
public struct AlertBook: Sendable {
  /// One rule: a condition, and whether its firing ends the run.
  public struct Rule: Sendable, Hashable {
    public var condition: AlertCondition
    public var ends: Bool
    /// The condition as the user wrote it (`binance/BTCUSDT>100000`, where `condition` has the
    /// venue's symbol alone).
    public var written: String

    public init(condition: AlertCondition, ends: Bool, written: String? = nil) {
      self.condition = condition
      self.ends = ends
      self.written = written ?? condition.description
    }
  }

  /// A rule that fired, and the quote that made it.
  public struct Firing: Sendable, Equatable {
    public var rule: Rule
    public var quote: Quote
    /// The price the condition judged: the trade's, or the side's of a top-of-book quote.
    public var price: Price
    /// The first price of the symbol (of its side) this run: what moves are measured from.
    public var start: Price?
    /// Where `quote` is among the quotes judged (0-based, in the collection's order).
    public var position: Int = 0
  }

  public let rules: [Rule]
  private var holding: [Bool]
  private var starts: [String: Price] = [:]
  /// The first ask of each symbol, for moves of `.ask` conditions.
  private var askStarts: [String: Price] = [:]
  private let watched: Set<String>

  public init(rules: [Rule]) {
    self.rules = rules
    holding = Array(repeating: false, count: rules.count)
    watched = Set(rules.map(\.condition.symbol))
  }

  public var isEmpty: Bool { rules.isEmpty }

  /// The first price received for `symbol`, if any yet.
  public func start(of symbol: String) -> Price? { starts[symbol] }

  /// Judges `quotes` in order; returns the rules that fired, in order. A rule that `ends` the
  /// run stops the judging after its quote: what came after it is never judged.
  public mutating func judge(_ quotes: some Collection<Quote>) -> [Firing] {
    var fired: [Firing] = []
    for (position, quote) in quotes.enumerated() where watched.contains(quote.symbol) {
      let start = starts[quote.symbol] ?? quote.price
      if starts[quote.symbol] == nil { starts[quote.symbol] = quote.price }
      let askStart = quote.ask.map { askStarts[quote.symbol] ?? $0.price }
      if let ask = quote.ask, askStarts[quote.symbol] == nil { askStarts[quote.symbol] = ask.price }
      var ends = false
      for index in rules.indices where rules[index].condition.symbol == quote.symbol {
        let condition = rules[index].condition
        guard let price = condition.price(of: quote) else { continue }
        let from = condition.side == .ask ? askStart : start
        let holds = condition.holds(price: price, start: from)
        if holds && !holding[index] {
          fired.append(
            Firing(rule: rules[index], quote: quote, price: price, start: from, position: position))
          ends = ends || rules[index].ends
        }
        holding[index] = holds
      }
      if ends { break }
    }
    return fired
  }
}

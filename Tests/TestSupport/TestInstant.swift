import Venues

/// An instant the tests set by hand: an offset from an arbitrary origin, for driving the pure
/// state machines (the feed machine, the stage, the board) with explicit times.
package struct TestInstant: InstantProtocol, CustomStringConvertible {
  package var offset: Duration
  package init(offset: Duration) { self.offset = offset }
  package static let zero = TestInstant(offset: .zero)
  /// `value` milliseconds from the origin.
  package static func ms(_ value: Int64) -> TestInstant { TestInstant(offset: .milliseconds(value)) }
  /// `seconds` from the origin.
  package static func at(_ seconds: Double) -> TestInstant {
    TestInstant(offset: .milliseconds(Int64(seconds * 1000)))
  }
  package func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }
  package func duration(to other: TestInstant) -> Duration { other.offset - offset }
  package static func < (a: TestInstant, b: TestInstant) -> Bool { a.offset < b.offset }
  package var description: String { "t+\(offset)" }
}

/// A quote of `symbol` at `price` (decimal text), traded at `time` (ms since the epoch).
package func q(_ symbol: String, _ price: String, _ time: Int64) -> Quote {
  Quote(symbol: symbol, price: Price(price)!, time: time)
}

/// Quotes as "SYMBOL PRICE @TIME", for comparing.
package func describe(_ quotes: [Quote]) -> [String] {
  quotes.map { "\($0.symbol) \($0.price.text) @\($0.time)" }
}

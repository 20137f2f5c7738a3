import Venues

/// Turns quotes into output lines. Formatters may keep state (the text formatter remembers each
/// symbol's previous price for colour), hence `mutating`.
public protocol QuoteFormatter: Sendable {
  /// The line written once before any quote (csv and tsv column names), newline included.
  var header: [UInt8]? { get }
  /// Appends one complete line for `quote`, newline included.
  mutating func append(_ quote: Quote, to buffer: inout [UInt8])
  /// Appends a line for each of `quotes`, in order: what `append(_:to:)` for each does. A
  /// formatter may read the quotes where they lie; each passed on its own is a copy.
  mutating func append(contentsOf quotes: ArraySlice<Quote>, to buffer: inout [UInt8])
}

extension QuoteFormatter {
  public var header: [UInt8]? { nil }

  public mutating func append(contentsOf quotes: ArraySlice<Quote>, to buffer: inout [UInt8]) {
    for quote in quotes { append(quote, to: &buffer) }
  }

  /// One complete line for `quote`, newline included.
  public mutating func format(_ quote: Quote) -> String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(96)
    append(quote, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}

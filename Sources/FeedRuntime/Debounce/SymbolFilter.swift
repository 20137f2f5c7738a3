import Venues

/// Keeps only quotes for subscribed symbols.
///
/// A server can send trades for any symbol it likes; printing them would let it forge records
/// for symbols a script downstream trusts (`-s AAPL`, yet a `BINANCE:BTCUSDT` line appears). Only
/// the symbols of the current subscription pass, compared in the venue's own spelling (the
/// provider maps what the user typed to what its server sends).
public struct SymbolFilter: Sendable, Equatable {
  /// The subscribed symbols, as the server spells them, compared byte for byte (see
  /// `SymbolTable`). A decoder may take its quotes' symbol strings from here.
  public private(set) var table: SymbolTable

  public init(symbols: some Sequence<String>) {
    table = SymbolTable(symbols)
  }

  /// The subscribed symbols.
  public var symbols: Set<String> { Set(table.symbols) }

  public func allows(_ symbol: String) -> Bool { table.contains(symbol) }

  /// Removes the quotes of symbols not subscribed from `quotes[start...]`, keeping the order of
  /// the rest; returns how many were removed and the first such symbol.
  @discardableResult
  public func retain(_ quotes: inout [Quote], from start: Int = 0) -> (removed: Int, example: String?) {
    var firstBad = start
    while firstBad < quotes.count, allows(quotes[firstBad].symbol) { firstBad += 1 }
    guard firstBad < quotes.count else { return (0, nil) }
    let example = quotes[firstBad].symbol
    let before = quotes.count
    var write = firstBad
    for read in firstBad..<quotes.count where allows(quotes[read].symbol) {
      quotes.swapAt(write, read)
      write += 1
    }
    quotes.removeSubrange(write...)
    return (before - quotes.count, example)
  }

  public mutating func insert(_ symbol: String) { table.insert(symbol) }

  public mutating func remove(_ symbol: String) { table.remove(symbol) }
}

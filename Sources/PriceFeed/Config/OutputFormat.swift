/// How quotes are written to stdout (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
  /// `TextFormatter`: time, symbol and price, tab-separated.
  case text
  /// `JSONLinesFormatter`: one JSON object per line.
  case json

  public func makeFormatter(useColor: Bool) -> any QuoteFormatter {
    switch self {
    case .text: TextFormatter(useColor: useColor)
    case .json: JSONLinesFormatter()
    }
  }
}

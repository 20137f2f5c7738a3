/// How quotes are written to stdout (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
  /// `TextFormatter`: time, symbol and price, tab-separated.
  case text
  /// `JSONLinesFormatter`: one JSON object per line.
  case json
  /// `DelimitedFormatter`: a header, then comma-separated rows quoted per RFC 4180.
  case csv
  /// `DelimitedFormatter`: a header, then tab-separated rows.
  case tsv
  /// `PriceOnlyFormatter`: the bare price, for `while read p`.
  case price

  /// Whether the format has a time column that `--timestamps` chooses.
  public var hasTimeColumn: Bool {
    switch self {
    case .text, .csv, .tsv: true
    case .json, .price: false
    }
  }

  /// The formatter for lines written to a pipe or a file (and to a terminal, unless the
  /// terminal formatter takes over).
  public func makeFormatter(_ context: FormatContext) -> any QuoteFormatter {
    switch self {
    case .text: TextFormatter(useColor: context.useColor, timestamps: context.timestamps)
    case .json: JSONLinesFormatter(provider: context.provider)
    case .csv: DelimitedFormatter(separator: .comma, timestamps: context.timestamps)
    case .tsv: DelimitedFormatter(separator: .tab, timestamps: context.timestamps)
    case .price: PriceOnlyFormatter()
    }
  }
}

/// What a formatter needs to know beyond the quotes.
public struct FormatContext: Sendable, Equatable {
  /// ANSI colour (only ever for a terminal, or `--color always`).
  public var useColor: Bool
  /// The provider's name, as `--provider` spells it (`finnhub`).
  public var provider: String
  public var timestamps: TimestampChoice

  public init(useColor: Bool = false, provider: String = "finnhub", timestamps: TimestampChoice = .trade) {
    self.useColor = useColor
    self.provider = provider
    self.timestamps = timestamps
  }
}

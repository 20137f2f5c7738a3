import Venues

/// How quotes are written to stdout (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
  /// `TextFormatter`: time, symbol and price (or bid and ask), tab-separated.
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

  /// The formatter for the lines of this format: text on a terminal is `TerminalLineFormatter`
  /// (aligned, arrows, change since the start); everything else is the same on a terminal as in
  /// a pipe or a file.
  public func makeFormatter(_ context: FormatContext) -> any QuoteFormatter {
    switch self {
    case .text where context.isTerminal:
      TerminalLineFormatter(
        symbols: context.symbols, venues: context.venues, useColor: context.useColor,
        timestamps: context.timestamps)
    case .text:
      TextFormatter(useColor: context.useColor, timestamps: context.timestamps, venues: context.venues)
    case .json: JSONLinesFormatter(providers: context.venues.isEmpty ? [context.provider] : context.venues)
    case .csv:
      DelimitedFormatter(
        separator: .comma, timestamps: context.timestamps, venues: context.venues, bidAsk: context.bidAsk)
    case .tsv:
      DelimitedFormatter(
        separator: .tab, timestamps: context.timestamps, venues: context.venues, bidAsk: context.bidAsk)
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
  /// stdout is a terminal (a person reads it).
  public var isTerminal: Bool
  /// The subscribed symbols as quotes name them (the terminal view sizes its columns with them).
  public var symbols: [String]
  /// In a run of several venues, their names (`--provider`'s spelling), in the order
  /// `Quote.venue` counts them: lines then say which venue each price is from. Empty for one.
  public var venues: [String]
  /// The run follows the best bid and ask (`--bid-ask`): csv and tsv name those columns.
  public var bidAsk: Bool

  public init(
    useColor: Bool = false, provider: String = ProviderCatalog.defaultProvider.name,
    timestamps: TimestampChoice = .trade,
    isTerminal: Bool = false, symbols: [String] = [], venues: [String] = [], bidAsk: Bool = false
  ) {
    self.bidAsk = bidAsk
    self.venues = venues
    self.useColor = useColor
    self.provider = provider
    self.timestamps = timestamps
    self.isTerminal = isTerminal
    self.symbols = symbols
  }
}

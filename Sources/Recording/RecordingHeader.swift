/// The first line of a run section.
public struct RecordingHeader: Sendable, Equatable {
  public static let currentFormat = 1
  public var format: Int
  public var provider: String
  /// Canonical for the provider.
  public var symbols: [String]
  /// The wall-clock time the run started (ms since the epoch).
  public var startedMilliseconds: Int64

  public init(
    format: Int = Self.currentFormat, provider: String, symbols: [String], startedMilliseconds: Int64
  ) {
    self.format = format
    self.provider = provider
    self.symbols = symbols
    self.startedMilliseconds = startedMilliseconds
  }
}

/// A message too large to turn into quotes all at once (100,000 trades in 15 MB would take
/// several times that as `Quote`s), decoded a chunk at a time instead: each chunk goes through
/// the pipeline before the next is made, so memory stays at the message plus one chunk.
public enum LargeMessage: Sendable {
  /// A price message: its quotes, chunk by chunk, and what was wrong with entries that were
  /// dropped (the first few descriptions, and how many in all).
  case chunks(any QuoteChunks, dropped: [String], droppedCount: Int)
  /// Anything else: the same event `decode(_:)` would give.
  case event(ProviderEvent)

  /// Messages at least this long are offered to `Provider.decodeLarge`.
  public static let threshold = 64 << 10
  /// Quotes per chunk.
  public static let chunkSize = 1024
  /// Descriptions of dropped entries kept (a hostile message can have a million).
  public static let droppedDescriptions = 5
}

/// The quotes of one large message, a chunk at a time.
public protocol QuoteChunks: Sendable {
  /// Appends the next chunk's quotes to `quotes`; false once there are no more.
  mutating func next(into quotes: inout [Quote]) -> Bool
}

/// What a venue's decoding remembers of one connection: the runtime keeps one per connection
/// (emptied when a new one opens) and hands it to providers that ask for it
/// (`Provider.usesDecodingContext`). A provider stays a pure function of the message and this.
public struct DecodingContext: Sendable, Equatable {
  /// Channel ids the venue assigned on this connection, and the symbol each carries (Bitfinex's
  /// frames name only the channel id its `subscribed` event mapped to a symbol).
  public var channels: [String: String] = [:]
  /// The ids of `channels` that carry a top of book rather than trades (Bitfinex's `ticker`):
  /// its frames look alike, only the `subscribed` event said which channel an id is.
  public var bookChannels: Set<String> = []
  /// Symbols whose next quotes are the history the venue sends on subscribing (a back-fill of
  /// recent trades that looks like live ones), in the venue's spelling.
  public var historyDue: Set<String> = []
  /// The order books a venue's top of book is read from (Bybit's `orderbook.1`, Gemini's `l2`),
  /// by symbol in the venue's spelling. At most `maximumBooks`: a book for yet another symbol
  /// is refused as malformed (the venue sends books only for what was subscribed).
  public var books: [String: LocalBook] = [:]
  public static let maximumBooks = 4096

  public init() {}
}

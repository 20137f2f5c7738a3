/// The venues FeedServer can emulate and write load for.
public enum Venue: String, Sendable, Equatable, CaseIterable {
  case finnhub, upbit, binance, coinbase

  /// The venue of the provider named `name` as the ticker's `--provider` spells it; nil for
  /// any other name.
  public init?(provider name: String) {
    self.init(rawValue: name.lowercased())
  }
}

extension FeedServer.Options.Emulation {
  /// The emulation of `venue`.
  public init(_ venue: Venue) {
    switch venue {
    case .finnhub: self = .finnhub
    case .upbit: self = .upbit
    case .binance: self = .binance
    case .coinbase: self = .coinbase
    }
  }

  /// The venue emulated; nil for `.verbatim`.
  public var venue: Venue? {
    switch self {
    case .finnhub: .finnhub
    case .upbit: .upbit
    case .binance: .binance
    case .coinbase: .coinbase
    case .verbatim: nil
    }
  }
}

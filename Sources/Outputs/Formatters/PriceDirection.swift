import Venues

/// Which way a symbol's price went since its previous line (or frame): shown as an arrow, so that
/// direction never depends on colour alone.
public enum PriceDirection: Sendable, Equatable {
  case up
  case down
  /// The same price, or the symbol's first.
  case unchanged

  /// The direction from `previous` (nil: the first price) to `current`, compared exactly.
  public init(from previous: Price?, to current: Price) {
    guard let previous else {
      self = .unchanged
      return
    }
    self = current > previous ? .up : current < previous ? .down : .unchanged
  }

  /// `▲`, `▼` or `•`: one column each.
  public var arrow: String {
    switch self {
    case .up: "▲"
    case .down: "▼"
    case .unchanged: "•"
    }
  }

  /// The SGR colour for the direction (green up, red down); nil when unchanged.
  var color: TerminalStyle? {
    switch self {
    case .up: .green
    case .down: .red
    case .unchanged: nil
    }
  }
}

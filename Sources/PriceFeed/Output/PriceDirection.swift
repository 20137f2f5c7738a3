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

/// The few SGR attributes the terminal views use. Written only when colour is on.
public enum TerminalStyle: Sendable, Equatable {
  case green
  case red
  case bold

  var code: String {
    switch self {
    case .green: "\u{1B}[32m"
    case .red: "\u{1B}[31m"
    case .bold: "\u{1B}[1m"
    }
  }

  static let reset = "\u{1B}[0m"

  /// `text` wrapped in this style and a reset when `enabled`; `text` itself otherwise.
  func wrap(_ text: String, enabled: Bool) -> String {
    enabled ? code + text + Self.reset : text
  }
}

/// `--speed`: how fast `--replay` goes. A factor of the recorded pacing (1 = as recorded, 2 =
/// gaps halved), or `max`: no waiting at all. What prints is the same at every speed.
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
  case max
  case factor(Double)

  public static let `default` = ReplaySpeed.factor(1)

  /// `max`, or a number from 0.001 to 1,000,000.
  public static func parse(_ text: String) -> ReplaySpeed? {
    if text.lowercased() == "max" { return .max }
    guard let value = Double(text), value.isFinite, value >= 0.001, value <= 1_000_000 else { return nil }
    return .factor(value)
  }

  public var description: String {
    switch self {
    case .max: "max"
    case .factor(let value):
      value == value.rounded() && value < 1e15 ? String(Int64(value)) : String(value)
    }
  }
}

/// The Prometheus text exposition format (0.0.4): families with their `# HELP` and `# TYPE`, then
/// their samples, label values and help escaped as the format asks.
public struct PrometheusText: Sendable {
  public enum Kind: String, Sendable {
    case counter, gauge
  }

  public private(set) var text = ""

  public init() {}

  /// Starts a family: its help and type lines.
  public mutating func family(_ name: String, _ kind: Kind, help: String) {
    text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
  }

  /// One sample of the current family.
  public mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String> = [:], _ value: Double)
  {
    text += name
    if !labels.isEmpty {
      text += "{"
      var first = true
      for (key, labelValue) in labels {
        if !first { text += "," }
        first = false
        text += "\(key)=\"\(Self.escapedLabel(labelValue))\""
      }
      text += "}"
    }
    text += " \(Self.number(value))\n"
  }

  /// Help text: backslashes and line feeds escaped.
  static func escapedHelp(_ help: String) -> String { escaped(help, quotes: false) }

  /// A label value: backslashes, line feeds and double quotes escaped.
  static func escapedLabel(_ value: String) -> String { escaped(value, quotes: true) }

  private static func escaped(_ text: String, quotes: Bool) -> String {
    var out = ""
    for c in text.unicodeScalars {
      switch c {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\"" where quotes: out += "\\\""
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// Whole numbers without a fraction; `+Inf`, `-Inf` and `NaN` as the format spells them.
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }
}

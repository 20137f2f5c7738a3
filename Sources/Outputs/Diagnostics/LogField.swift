/// A structured value a JSON diagnostic carries besides its message (`"attempt":2`): what a
/// script would otherwise have to read out of the words. Text lines do not show them.
public struct LogField: Sendable, Equatable {
  public enum Value: Sendable, Equatable {
    case int(Int)
    case string(String)
    case strings([String])
    /// Written in seconds, milliseconds at most (`0.6`, `60`).
    case seconds(Duration)
  }

  /// A snake_case key (`retry_in_seconds`).
  public let name: String
  public let value: Value

  public init(_ name: String, _ value: Value) {
    self.name = name
    self.value = value
  }

  public static func int(_ name: String, _ value: Int) -> LogField { LogField(name, .int(value)) }
  public static func string(_ name: String, _ value: String) -> LogField { LogField(name, .string(value)) }
  public static func strings(_ name: String, _ value: [String]) -> LogField {
    LogField(name, .strings(value))
  }
  public static func seconds(_ name: String, _ value: Duration) -> LogField {
    LogField(name, .seconds(value))
  }
}

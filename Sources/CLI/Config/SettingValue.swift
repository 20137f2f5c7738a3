import NATS
import TickerSupport
import Venues
import WebSocketWire

/// Parsing and validation of individual setting values, shared by the command line, the
/// environment and the config file so that every source accepts the same values and explains
/// problems with the same words. Each function returns nil when the value is unusable; the
/// matching `…Requirement` text says what was expected.
enum SettingValue {
  static let secondsRequirement = "must be a number of seconds ≥ 0"
  static let positiveSecondsRequirement = "must be a number of seconds > 0"
  static let countRequirement = "must be a whole number ≥ 1"
  static let retriesRequirement = "must be a whole number ≥ 0"
  static let sizeRequirement = "must be a whole number of bytes between 125 and 2147483647"
  static let symbolsRequirement = "must be a non-empty list of symbols"
  static let booleanRequirement = "must be true or false"
  static let stringRequirement = "must be a string"
  static let pathRequirement = "must be a non-empty file path"
  static let urlRequirement = "must be a ws:// or wss:// URL"
  static let natsURLRequirement = "must be a nats://HOST:PORT or tls://HOST:PORT URL"
  static let maxSeconds = 86_400.0

  static func choices<T: RawRepresentable & CaseIterable>(_: T.Type) -> String where T.RawValue == String {
    "must be one of " + T.allCases.map(\.rawValue).joined(separator: ", ")
  }

  static var providerRequirement: String {
    "must be one of " + ProviderCatalog.names.joined(separator: ", ")
  }

  /// Decimal seconds (`0.25`, `2`, `1e-1`), finite, at most a day.
  static func seconds(_ text: String, allowZero: Bool = true) -> Duration? {
    guard let price = Price(text) else { return nil }  // strict decimal grammar, no "inf"/"nan"
    return seconds(price.value, allowZero: allowZero)
  }

  static func seconds(_ value: Double, allowZero: Bool = true) -> Duration? {
    guard value.isFinite, value >= 0, value <= maxSeconds else { return nil }
    if !allowZero && value == 0 { return nil }
    return .seconds(value)
  }

  static func count(_ text: String) -> Int? {
    guard let n = Int(text), n >= 1 else { return nil }
    return n
  }

  /// An IPv4 or IPv6 literal (no brackets), or `localhost`.
  static func listenAddress(_ text: String) -> String? {
    if text == "localhost" { return text }
    let octets = text.split(separator: ".", omittingEmptySubsequences: false)
    if octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) {
      return text
    }
    let hex = "0123456789abcdefABCDEF:."
    if text.contains(":"), text.count <= 45, text.allSatisfy({ hex.contains($0) }) { return text }
    return nil
  }

  static func retries(_ text: String) -> Int? {
    guard let n = Int(text), n >= 0 else { return nil }
    return n
  }

  static func messageSize(_ text: String) -> Int? {
    guard let n = Int(text), n >= 125, n <= Int(Int32.max) else { return nil }
    return n
  }

  static func boolean(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "1", "true", "yes", "on": true
    case "0", "false", "no", "off": false
    default: nil
    }
  }

  /// Splits on commas, trims spaces around each symbol (spaces inside are kept: `IC MARKETS:1`),
  /// drops empty pieces.
  static func symbols(_ text: String) -> [String] {
    text.split(separator: ",").map { piece in
      var s = Substring(piece)
      while s.first == " " || s.first == "\t" { s = s.dropFirst() }
      while s.last == " " || s.last == "\t" { s = s.dropLast() }
      return String(s)
    }.filter { !$0.isEmpty }
  }

  static func url(_ text: String) -> WebSocketURL? {
    do throws(InvalidWebSocketURL) {
      return try WebSocketURL(parsing: text)
    } catch {
      return nil
    }
  }

  static func natsURL(_ text: String) -> NATSURL? {
    do throws(NATSURLError) {
      return try NATSURL(parsing: text)
    } catch {
      return nil
    }
  }

  /// What is wrong with a URL that `url(_:)` refused, in the words of the requirement texts
  /// ("must be a ws:// or wss:// URL: …").
  static func urlRequirement(for text: String) -> String {
    let lower = text.lowercased()
    guard lower.hasPrefix("ws://") || lower.hasPrefix("wss://") else { return urlRequirement }
    do throws(InvalidWebSocketURL) {
      _ = try WebSocketURL(parsing: text)
      return urlRequirement
    } catch {
      return urlRequirement + ": " + error.reason
    }
  }

  /// A value to echo in a message about a refused URL: no query values, no user information.
  static func printableURL(_ text: String) -> String {
    Redaction.redactUserInfo(Redaction.redactQuery(text))
  }

  static func choice<T: RawRepresentable>(_ text: String, as _: T.Type) -> T? where T.RawValue == String {
    T(rawValue: text.lowercased())
  }
}

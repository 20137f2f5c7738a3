import FeedRuntime
import JSON
import NATS
import Recording
import Venues
import WebSocketWire

/// The value types settings use, each read the same way from flags, the environment and the file
/// (`SettingValue` does the checking), shown the same way in help, docs/options.md and
/// `config.example.json`.
enum ValueParsers {
  static func seconds(allowZero: Bool) -> ValueParser<Duration> {
    ValueParser(
      requirement: allowZero ? SettingValue.secondsRequirement : SettingValue.positiveSecondsRequirement,
      text: { SettingValue.seconds($0, allowZero: allowZero) },
      json: { value in value.numberText.flatMap { SettingValue.seconds($0, allowZero: allowZero) } },
      show: secondsText, jsonText: secondsText)
  }

  /// Seconds where 0 means "off" (`--ping-interval`, `--silence-timeout`).
  static var secondsOrOff: ValueParser<Duration> {
    let base = seconds(allowZero: true)
    return ValueParser(
      requirement: base.requirement + " (0 = off)", text: base.text, json: base.json, show: base.show,
      jsonText: base.jsonText)
  }

  static let count = ValueParser<Int>(
    requirement: SettingValue.countRequirement, text: SettingValue.count,
    json: { $0.numberText.flatMap(SettingValue.count) }, show: { String($0) }, jsonText: { String($0) })

  static let retries = ValueParser<Int>(
    requirement: SettingValue.retriesRequirement, text: SettingValue.retries,
    json: { $0.numberText.flatMap(SettingValue.retries) }, show: { String($0) }, jsonText: { String($0) })

  static let bytes = ValueParser<Int>(
    requirement: SettingValue.sizeRequirement, text: SettingValue.messageSize,
    json: { $0.numberText.flatMap(SettingValue.messageSize) }, show: { String($0) }, jsonText: { String($0) })

  static let port = ValueParser<Int>(
    requirement: "must be a port number from 0 to 65535 (0: any free port)",
    text: { Int($0).flatMap { (0...65535).contains($0) ? $0 : nil } },
    json: { $0.numberText.flatMap(Int.init).flatMap { (0...65535).contains($0) ? $0 : nil } },
    show: { String($0) }, jsonText: { String($0) })

  static let clients = ValueParser<Int>(
    requirement: "must be a whole number from 1 to 10000",
    text: { Int($0).flatMap { (1...10000).contains($0) ? $0 : nil } },
    json: { $0.numberText.flatMap(Int.init).flatMap { (1...10000).contains($0) ? $0 : nil } },
    show: { String($0) }, jsonText: { String($0) })

  /// An address to listen on: an IPv4 or IPv6 literal, or `localhost`.
  static let address = ValueParser<String>(
    requirement: "must be an IP address to listen on (127.0.0.1, ::1, 0.0.0.0, …) or localhost",
    text: { SettingValue.listenAddress($0) },
    json: { $0.stringValue.flatMap(SettingValue.listenAddress) }, show: { $0 },
    jsonText: { JSONEscaping.quoted($0) })

  /// `--metrics`: `HOST:PORT`, `[V6]:PORT` or a port alone.
  static let metricsAddress = ValueParser<MetricsAddress>(
    requirement:
      "must be HOST:PORT with an IP address to listen on (127.0.0.1:9464, [::1]:9464) or a port alone",
    text: MetricsAddress.parse, json: { $0.stringValue.flatMap(MetricsAddress.parse) },
    show: { $0.description }, jsonText: { JSONEscaping.quoted($0.description) })

  static let bool = ValueParser<Bool>(
    requirement: SettingValue.booleanRequirement, text: SettingValue.boolean,
    json: { $0.boolValue }, show: { String($0) }, jsonText: { String($0) })

  static let path = ValueParser<String>(
    requirement: SettingValue.pathRequirement, completion: .file, text: { $0.isEmpty ? nil : $0 },
    json: { value in value.stringValue.flatMap { $0.isEmpty ? nil : $0 } }, show: { $0 },
    jsonText: { JSONEscaping.quoted($0) })

  /// A shell command: any text but an empty one or one with a NUL (which a C string cannot hold).
  static let command = ValueParser<String>(
    requirement: "must be a shell command", text: { $0.isEmpty || $0.contains("\0") ? nil : $0 },
    json: { value in value.stringValue.flatMap { $0.isEmpty || $0.contains("\0") ? nil : $0 } },
    show: { $0 }, jsonText: { JSONEscaping.quoted($0) })

  static let token = ValueParser<String>(
    requirement: "must be a string (or null)", text: { $0.isEmpty ? nil : $0 },
    json: { value in value.stringValue.flatMap { $0.isEmpty ? nil : $0 } }, show: { _ in "***" },
    jsonText: { JSONEscaping.quoted($0) })

  static let streamName = ValueParser<String>(
    requirement:
      "must be a JetStream stream name: 1 to 255 bytes, no white space, '.', '*', '>', '/' or '\\'",
    text: { JetStreamAPI.isValidStreamName($0) ? $0 : nil },
    json: { value in value.stringValue.flatMap { JetStreamAPI.isValidStreamName($0) ? $0 : nil } },
    show: { $0 }, jsonText: { JSONEscaping.quoted($0) })

  static let url = ValueParser<WebSocketURL>(
    requirement: SettingValue.urlRequirement, text: SettingValue.url,
    json: { value in value.stringValue.flatMap(SettingValue.url) }, show: { $0.description },
    jsonText: { JSONEscaping.quoted($0.description) })

  /// `URL` or `VENUE=URL`, repeatable; in a file, one or a list, null for none.
  static let endpoints = ValueParser<[VenueEndpoint]>(
    requirement: SettingValue.urlRequirement + ", or VENUE=URL for one venue of several",
    text: { VenueEndpoint.parse($0).map { [$0] } },
    json: { value in strings(value, each: { VenueEndpoint.parse($0).map { [$0] } }) },
    show: { $0.map(\.description).joined(separator: ",") },
    jsonText: {
      $0.isEmpty ? "null" : "[" + $0.map { JSONEscaping.quoted($0.description) }.joined(separator: ", ") + "]"
    },
    nullable: true)

  /// Assets (`BTC`): letters and digits, upper-cased; a comma list (in a file, a list too).
  static let assets = ValueParser<[String]>(
    requirement: "must be asset names such as BTC or ETH, separated by commas",
    text: assetList, json: { strings($0, each: assetList) },
    show: { $0.isEmpty ? "none" : $0.joined(separator: ",") },
    jsonText: { "[" + $0.map(JSONEscaping.quoted).joined(separator: ", ") + "]" })

  /// Venue names, each one the catalog knows; a comma list (in a file, a list too).
  static let venueNames = ValueParser<[String]>(
    requirement: SettingValue.providerRequirement,
    text: venueList, json: { strings($0, each: venueList) },
    show: { $0.isEmpty ? "every venue" : $0.joined(separator: ",") },
    jsonText: { "[" + $0.map(JSONEscaping.quoted).joined(separator: ", ") + "]" })

  private static func assetList(_ text: String) -> [String]? {
    let list = SettingValue.symbols(text).map { $0.uppercased() }
    return list.isEmpty || !list.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber } }) ? nil : list
  }

  private static func venueList(_ text: String) -> [String]? {
    let list = SettingValue.symbols(text).map { $0.lowercased() }
    return list.isEmpty || !list.allSatisfy({ ProviderCatalog.provider(named: $0) != nil }) ? nil : list
  }

  /// A JSON string, or a list of them (an empty list is none), each read by `each`.
  private static func strings<T>(_ value: JSONValue, each: (String) -> [T]?) -> [T]? {
    switch value {
    case .string(let text): return each(text)
    case .array(let items):
      var list: [T] = []
      for item in items {
        guard case .string(let text) = item, let read = each(text) else { return nil }
        list += read
      }
      return list
    default: return nil
    }
  }

  /// `nats://HOST:PORT` or `tls://HOST:PORT` (`NATSURL`); shown without its credentials.
  static var natsURL: ValueParser<NATSURL> {
    var parser = ValueParser<NATSURL>(
      requirement: SettingValue.natsURLRequirement, text: SettingValue.natsURL,
      json: { value in value.stringValue.flatMap(SettingValue.natsURL) }, show: { $0.description },
      jsonText: { JSONEscaping.quoted($0.description) })
    parser.explain = { text in
      do throws(NATSURLError) {
        _ = try NATSURL(parsing: text)
        return nil
      } catch {
        return SettingValue.natsURLRequirement + ": \(error)"
      }
    }
    return parser
  }

  /// A comma-separated list (`AAPL,BINANCE:BTCUSDT`); in the file also an array of strings.
  static let symbols = ValueParser<[String]>(
    requirement: SettingValue.symbolsRequirement,
    text: { text in
      let list = SettingValue.symbols(text)
      return list.isEmpty ? nil : list
    },
    json: { value in
      var list: [String] = []
      switch value {
      case .string(let s): list = SettingValue.symbols(s)
      case .array(let items):
        for item in items {
          guard case .string(let s) = item else { return nil }
          list += SettingValue.symbols(s)
        }
      default: return nil
      }
      return list.isEmpty ? nil : list
    },
    show: { $0.joined(separator: ",") },
    jsonText: { "[" + $0.map(JSONEscaping.quoted).joined(separator: ", ") + "]" })

  static func choice<T: RawRepresentable & CaseIterable & Sendable>(_: T.Type) -> ValueParser<T>
  where T.RawValue == String {
    ValueParser(
      requirement: SettingValue.choices(T.self), choices: T.allCases.map(\.rawValue),
      text: { SettingValue.choice($0, as: T.self) },
      json: { value in value.stringValue.flatMap { SettingValue.choice($0, as: T.self) } },
      show: { $0.rawValue }, jsonText: { JSONEscaping.quoted($0.rawValue) })
  }

  static let control = choice(ControlSource.self)

  static let speed = ValueParser<ReplaySpeed>(
    requirement: "must be a number from 0.001 to 1000000 (1 = as recorded) or max", text: ReplaySpeed.parse,
    json: { value in (value.stringValue ?? value.numberText).flatMap(ReplaySpeed.parse) },
    show: { $0.description }, jsonText: { JSONEscaping.quoted($0.description) })

  /// Conditions (`BINANCE:BTCUSDT>100000`), comma-separated; in the file also an array.
  static var conditions: ValueParser<[AlertCondition]> {
    @Sendable func parse(_ text: String) -> [AlertCondition]? {
      var list: [AlertCondition] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard case .success(let condition) = AlertCondition.parse(String(part)) else { return nil }
        list.append(condition)
      }
      return list.isEmpty ? nil : list
    }
    var parser = ValueParser<[AlertCondition]>(
      requirement: "must be a condition: " + AlertCondition.grammar,
      text: parse,
      json: { value in
        switch value {
        case .string(let text): return parse(text)
        case .array(let items):
          var list: [AlertCondition] = []
          for item in items {
            guard let text = item.stringValue, let conditions = parse(text) else { return nil }
            list += conditions
          }
          return list
        default: return nil
        }
      },
      show: { $0.map(\.description).joined(separator: ",") },
      jsonText: { "[" + $0.map { JSONEscaping.quoted($0.description) }.joined(separator: ", ") + "]" })
    parser.explain = { text in
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        if case .failure(let error) = AlertCondition.parse(String(part)) {
          return "\(error); a condition is \(AlertCondition.grammar)"
        }
      }
      return nil
    }
    return parser
  }

  static var provider: ValueParser<String> {
    ValueParser(
      requirement: SettingValue.providerRequirement, choices: ProviderCatalog.names,
      text: { text in ProviderCatalog.names.contains(text.lowercased()) ? text.lowercased() : nil },
      json: { value in value.stringValue.flatMap { ProviderCatalog.names.contains($0) ? $0 : nil } },
      show: { $0 }, jsonText: { JSONEscaping.quoted($0) })
  }

  /// `0.5`, `10`, `0.001`: seconds as a person writes them.
  static func secondsText(_ duration: Duration) -> String {
    let (s, atto) = duration.components
    let millis = atto / 1_000_000_000_000_000
    if millis == 0 { return String(s) }
    var fraction = String(millis)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(s).\(fraction)"
  }
}

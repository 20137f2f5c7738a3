import JSON
import TickerSupport

/// What one OKX message means (docs/protocols.md §6): an event (`subscribe`, `unsubscribe`,
/// `error`, `notice`, …), or a push of a channel's data (`{"arg":{"channel":"tickers",…},"data":[…]}`;
/// `bbo-tbt`, the best bid and ask, is read as such whatever the provider follows).
/// Unknown events and channels are ignored, unknown keys too.
enum OKXMessage {
  static func event(json: JSONValue) -> ProviderEvent {
    guard case .object(let object) = json else {
      return .malformed("message must be a JSON object, not \(json.kindDescription)")
    }
    if let event = object["event"] {
      guard case .string(let name) = event else {
        return .malformed(#""event" must be a string, not "# + event.kindDescription)
      }
      return Self.event(named: name, object)
    }
    guard case .object(let arg)? = object["arg"] else {
      return .malformed(#"message has no "event" and no "arg" object"#)
    }
    guard case .string(let channel)? = arg["channel"] else {
      return .malformed(#""arg" has no string "channel""#)
    }
    guard channel == "tickers" || channel == "bbo-tbt" else { return .ignored("channel \(channel)") }
    guard case .array(let entries)? = object["data"] else {
      return .malformed(#""data" must be an array"#)
    }
    if channel == "bbo-tbt" { return book(entries, instrument: arg["instId"]?.stringValue) }
    return tickers(entries, instrument: arg["instId"]?.stringValue)
  }

  /// Each entry of a `bbo-tbt` push, as a top-of-book quote of the push's instrument; malformed
  /// entries are dropped and said, entries with a side empty left out.
  static func book(_ entries: [JSONValue], instrument: String?) -> ProviderEvent {
    guard let instrument, !instrument.isEmpty else {
      return .malformed(#"a "bbo-tbt" push needs a string "instId" in "arg""#)
    }
    var quotes: [Quote] = []
    var dropped: [String] = []
    for (index, entry) in entries.enumerated() {
      guard case .object(let fields) = entry else {
        dropped.append("data[\(index)]: must be an object, not \(entry.kindDescription)")
        continue
      }
      do throws(OKXBookTicker.Problem) {
        quotes.append(try OKXBookTicker(object: fields, instrument: instrument).quote)
      } catch {
        switch error {
        case .shape(let shape): dropped.append("data[\(index)]: \(shape.message)")
        case .emptySide: continue
        }
      }
    }
    if dropped.isEmpty { return quotes.isEmpty ? .ignored("bbo-tbt with a side empty") : .quotes(quotes) }
    return quotes.isEmpty ? .malformed(dropped.joined(separator: "; ")) : .partial(quotes, dropped: dropped)
  }

  /// Each entry of a `tickers` push, as quotes; malformed entries are dropped and said, entries
  /// without a last price (an instrument that never traded) left out without a word.
  static func tickers(_ entries: [JSONValue], instrument: String?) -> ProviderEvent {
    var quotes: [Quote] = []
    var dropped: [String] = []
    var untraded = 0
    for (index, entry) in entries.enumerated() {
      guard case .object(let fields) = entry else {
        dropped.append("data[\(index)]: must be an object, not \(entry.kindDescription)")
        continue
      }
      do throws(OKXTicker.Problem) {
        quotes.append(try OKXTicker(object: fields, instrument: instrument).quote)
      } catch {
        switch error {
        case .shape(let shape): dropped.append("data[\(index)]: \(shape.message)")
        case .untraded: untraded += 1
        }
      }
    }
    if dropped.isEmpty {
      return quotes.isEmpty && untraded > 0 ? .ignored(#"tickers without "last""#) : .quotes(quotes)
    }
    return quotes.isEmpty ? .malformed(dropped.joined(separator: "; ")) : .partial(quotes, dropped: dropped)
  }

  static func event(named name: String, _ object: JSONObject) -> ProviderEvent {
    switch name {
    case "subscribe", "unsubscribe":
      return .acknowledged(id: requestID(object))
    case "error":
      return .error(error(object))
    case "notice":
      // 64008: the connection closes for a service upgrade within about a minute.
      guard text(object["code"]) == "64008" else { return .ignored("notice") }
      return .closingSoon(object["msg"]?.stringValue ?? "service upgrade")
    default:
      // `login`, `channel-conn-count` (private channels only), and whatever OKX adds.
      return .ignored(name)
    }
  }

  /// `{"event":"error","code":"60018","msg":"Wrong URL or channel:tickers,instId:X doesn't exist. …","id":"3"}`.
  /// An unknown instrument (60018 naming an instId) refuses that instrument alone; requests too
  /// frequent (60014) refuse that request; anything else refuses the request as such, which
  /// sending it again would repeat.
  static func error(_ object: JSONObject) -> VenueError {
    let code = text(object["code"])
    let message = object["msg"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "unspecified error"
    let instrument = code == "60018" ? refusedInstrument(in: message) : nil
    return VenueError(
      name: code, message: message, requestID: requestID(object), fatal: instrument == nil && code != "60014",
      symbol: instrument)
  }

  /// The instrument a 60018 message names: the text after `instId:` up to a space, comma or
  /// quote (`Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist. …`, and the older
  /// `channel:tickers,instId:NOPE-USDT doesn't exist`); nil when it names none.
  static func refusedInstrument(in message: String) -> String? {
    guard let label = message.firstRange(ofText: "instId:") else { return nil }
    let rest = message[label.upperBound...]
    let end = rest.firstIndex { $0 == " " || $0 == "," || $0 == "\"" } ?? rest.endIndex
    let instrument = String(rest[..<end])
    return instrument.isEmpty ? nil : instrument
  }

  /// The request's `id` as OKX echoes it (a string of digits; the ticker's are numbers).
  static func requestID(_ object: JSONObject) -> Int? {
    text(object["id"]).flatMap { Int($0) }
  }

  /// A string's contents, or a number's text (OKX writes codes as strings).
  static func text(_ value: JSONValue?) -> String? {
    switch value {
    case .string(let text)?: text
    case .number(let text)?: text
    default: nil
    }
  }
}

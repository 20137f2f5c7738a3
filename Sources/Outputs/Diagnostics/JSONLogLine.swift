import JSON
import TickerSupport

/// One diagnostic as one line of JSON (`--log-format json`), for journald, Loki and jq:
///
///     {"time":"2026-01-17T13:18:52.976Z","level":"warning","venue":"Binance","event":"disconnected","message":"…","attempt":1}
///
/// `time` (RFC 3339, UTC, milliseconds), `level`, `venue` (only on a line about one venue of a
/// run: absent otherwise), `event`, `message`, then the event's own fields. Every string is
/// written as the text format would write it — secrets removed (`Redaction.redact`), control
/// characters escaped (`TerminalText`: ESC is `\x1b`) — and then quoted as JSON, so the line holds
/// no raw control character and `jq -r .message` is as safe on a terminal as the text. Pure.
public enum JSONLogLine {
  /// What one line says.
  public struct Entry: Sendable, Equatable {
    /// Milliseconds since the Unix epoch (the wall clock).
    public var time: Int64
    public var level: LogLevel
    public var venue: String?
    public var event: LogEvent
    /// The words a person reads, without the `ticker: warning: ` prefix or the venue's name.
    public var message: String
    public var fields: [LogField]

    public init(
      time: Int64, level: LogLevel, venue: String? = nil, event: LogEvent, message: String,
      fields: [LogField] = []
    ) {
      self.time = time
      self.level = level
      self.venue = venue
      self.event = event
      self.message = message
      self.fields = fields
    }
  }

  /// Room kept for the message before fields are left out: a long list of symbols must not
  /// leave the words no room.
  static let minimumMessageRoom = 160

  /// The bytes of `entry`'s line, newline included: at most `maximumBytes` before the newline.
  /// Too long, the message is cut (at a character, never inside an escape) and says how much
  /// was left out; fields that would not leave the message `minimumMessageRoom` are left out,
  /// the last first. The object stays valid JSON either way.
  public static func line(
    _ entry: Entry, secrets: [String], maximumBytes: Int = Diagnostics.maximumLineBytes
  ) -> [UInt8] {
    var head: [UInt8] = Array(#"{"time":""#.utf8)
    UTCTimestamp.append(milliseconds: entry.time, to: &head)
    head += Array(#"","level":""#.utf8) + Array(entry.level.rawValue.utf8) + [UInt8(ascii: "\"")]
    if let venue = entry.venue {
      head += Array(#","venue":"#.utf8)
      appendString(venue, secrets: secrets, to: &head)
    }
    head += Array(#","event":"#.utf8)
    JSONEscaping.appendQuoted(entry.event.name, to: &head)
    head += Array(#","message":"#.utf8)
    var tails = entry.fields.map { encoded($0, secrets: secrets) }
    // The message's two quotes and the closing brace.
    let fixed = head.count + 3
    var tailBytes = tails.reduce(0) { $0 + $1.count }
    while let last = tails.last, fixed + tailBytes + minimumMessageRoom > maximumBytes {
      tailBytes -= last.count
      tails.removeLast()
    }
    var message: [UInt8] = []
    appendString(entry.message, secrets: secrets, to: &message)
    var out = head
    out.reserveCapacity(fixed + tailBytes + message.count + 1)
    out.append(UInt8(ascii: "\""))
    appendCut(message[1..<(message.count - 1)], room: maximumBytes - fixed - tailBytes, to: &out)
    out.append(UInt8(ascii: "\""))
    for tail in tails { out += tail }
    out += [UInt8(ascii: "}"), 0x0A]
    return out
  }

  /// `text` as the text format writes it (redacted, escaped for a terminal), quoted as JSON.
  static func appendString(_ text: String, secrets: [String], to out: inout [UInt8]) {
    JSONEscaping.appendQuoted(TerminalText.escaped(Redaction.redact(text, secrets: secrets)), to: &out)
  }

  /// `,"name":value`.
  static func encoded(_ field: LogField, secrets: [String]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: ",")]
    JSONEscaping.appendQuoted(field.name, to: &out)
    out.append(UInt8(ascii: ":"))
    switch field.value {
    case .int(let value):
      out += Array(String(value).utf8)
    case .string(let text):
      appendString(text, secrets: secrets, to: &out)
    case .strings(let texts):
      out.append(UInt8(ascii: "["))
      for (n, text) in texts.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        appendString(text, secrets: secrets, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .seconds(let duration):
      out += Array(secondsText(duration).utf8)
    }
    return out
  }

  /// `0.6`, `60`, `1.25`: a JSON number of seconds, to the millisecond.
  static func secondsText(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    let sign = millis < 0 ? "-" : ""
    let whole = "\(sign)\(abs(millis / 1000))"
    var fraction = abs(millis % 1000)
    guard fraction != 0 else { return whole }
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let text = String(fraction)
    return whole + "." + String(repeating: "0", count: digits - text.count) + text
  }

  /// The quoted string's content `content`, whole when it fits in `room` bytes, else cut where a
  /// character or escape begins, with `… (N more bytes not shown)` after it (as the text says).
  static func appendCut(_ content: ArraySlice<UInt8>, room: Int, to out: inout [UInt8]) {
    guard content.count > room else {
      out += content
      return
    }
    // The note's longest form: at most as many digits as the whole content's length has.
    let longest = note(dropped: content.count).count
    let limit = max(0, room - longest)
    var cut = content.startIndex
    while cut < content.endIndex {
      let next = cut + width(at: cut, of: content)
      guard next - content.startIndex <= limit else { break }
      cut = next
    }
    out += content[..<cut]
    if room >= longest { out += note(dropped: content.endIndex - cut) }
  }

  private static func note(dropped: Int) -> [UInt8] {
    Array("… (\(dropped) more bytes not shown)".utf8)
  }

  /// How many bytes the character or escape at `index` takes: `\uXXXX` 6, another escape 2, a
  /// UTF-8 sequence its length.
  private static func width(at index: Int, of bytes: ArraySlice<UInt8>) -> Int {
    let byte = bytes[index]
    let length: Int
    switch byte {
    case UInt8(ascii: "\\"):
      length = index + 1 < bytes.endIndex && bytes[index + 1] == UInt8(ascii: "u") ? 6 : 2
    case 0xF0...: length = 4
    case 0xE0...: length = 3
    case 0xC0...: length = 2
    default: length = 1
    }
    return min(length, bytes.endIndex - index)
  }
}

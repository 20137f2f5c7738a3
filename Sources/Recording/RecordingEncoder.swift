import FeedRuntime
import JSON
import TickerSupport
import Venues
import WebSocketWire

/// Writes recording lines: one per call, with its newline. Keeps what successive lines share —
/// the time of the line before (for `after_ms`), and the stamp fields of the current batch, whose
/// lines all carry the same ones — so a firehose costs little more than copying its bodies.
public struct RecordingEncoder: Sendable {
  /// The last line's time, in ms since the start.
  private var previousMilliseconds: Int64 = 0
  private var stamp: (at: Int64, received: Int64, batch: Int, venue: Int)?
  /// `,"at_ns":…,"rt":…,"batch":…` for `stamp` (led by `,"venue":…` when `namesVenues`).
  private var stampBytes: [UInt8] = []
  /// Whether the current section is of several venues: its steps say whose they are (a section
  /// of one stays byte for byte what it was before several venues could be recorded).
  private var namesVenues = false

  public init() {}

  public mutating func append(_ line: RecordingLine, to out: inout [UInt8]) {
    switch line {
    case .header(let header):
      out.append(contentsOf: #"{"kind":"recording","format":"#.utf8)
      Self.appendDecimal(Int64(header.format), to: &out)
      if header.format == RecordingHeader.currentFormat {
        out.append(contentsOf: #","provider":"#.utf8)
        JSONEscaping.appendQuoted(header.provider, to: &out)
        out.append(contentsOf: #","symbols":"#.utf8)
        Self.appendList(header.symbols, to: &out)
        Self.appendStream(header.venues[0].stream, to: &out)
      } else {
        out.append(contentsOf: #","venues":["#.utf8)
        for (index, venue) in header.venues.enumerated() {
          out.append(contentsOf: (index == 0 ? #"{"provider":"# : #",{"provider":"#).utf8)
          JSONEscaping.appendQuoted(venue.provider, to: &out)
          out.append(contentsOf: #","symbols":"#.utf8)
          Self.appendList(venue.symbols, to: &out)
          Self.appendStream(venue.stream, to: &out)
          out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
      }
      out.append(contentsOf: #","started":""#.utf8)
      UTCTimestamp.append(milliseconds: header.startedMilliseconds, to: &out)
      out.append(contentsOf: #"","started_ms":"#.utf8)
      Self.appendDecimal(header.startedMilliseconds, to: &out)
      out.append(contentsOf: "}\n".utf8)
      previousMilliseconds = 0
      stamp = nil
      namesVenues = header.format != RecordingHeader.currentFormat
    case .step(let step):
      append(step, to: &out)
    }
  }

  private mutating func append(_ step: RecordedStep, to out: inout [UInt8]) {
    let ms = step.at / 1_000_000
    let after = max(0, ms - previousMilliseconds)
    previousMilliseconds = ms
    refreshStamp(for: step)
    switch step.what {
    case .message(let message):
      appendMessage(message, after: after, to: &out)
    case .exchanged(let direction, let kind, let body):
      appendHead(#"{"dir":""# + direction.rawValue + #"","kind":""# + kind.rawValue, after: after, to: &out)
      out.append(contentsOf: #","body":"#.utf8)
      Self.appendQuoted(body, to: &out)
    case .connected, .disconnected, .opened, .tick, .command, .control, .end:
      appendEvent(step.what, after: after, to: &out)
    }
    out.append(contentsOf: "}\n".utf8)
  }

  /// Rewrites `stampBytes` when `step` is stamped otherwise than the line before (a new batch).
  @inline(__always)
  private mutating func refreshStamp(for step: RecordedStep) {
    guard stamp == nil || stamp! != (step.at, step.received, step.batch, step.venue) else { return }
    stamp = (step.at, step.received, step.batch, step.venue)
    stampBytes.removeAll(keepingCapacity: true)
    if namesVenues {
      stampBytes.append(contentsOf: #","venue":"#.utf8)
      Self.appendDecimal(Int64(step.venue), to: &stampBytes)
    }
    stampBytes.append(contentsOf: #","at_ns":"#.utf8)
    Self.appendDecimal(step.at, to: &stampBytes)
    stampBytes.append(contentsOf: #","rt":"#.utf8)
    Self.appendDecimal(step.received, to: &stampBytes)
    stampBytes.append(contentsOf: #","batch":"#.utf8)
    Self.appendDecimal(Int64(step.batch), to: &stampBytes)
  }

  /// What every step's line starts with: `start` (its direction and kind, the kind's closing
  /// quote left out), `after_ms` and the stamp.
  @inline(__always)
  private func appendHead(_ start: String, after: Int64, to out: inout [UInt8]) {
    out.append(contentsOf: start.utf8)
    out.append(contentsOf: #"","after_ms":"#.utf8)
    Self.appendDecimal(after, to: &out)
    out.append(contentsOf: stampBytes)
  }

  /// A message the venue sent: text as it came; binary as text when it is UTF-8, else Base64.
  @inline(__always)
  private func appendMessage(_ message: WebSocketMessage, after: Int64, to out: inout [UInt8]) {
    switch message {
    case .text(let text):
      appendHead(#"{"dir":"S>","kind":"text"#, after: after, to: &out)
      out.append(contentsOf: #","body":"#.utf8)
      Self.appendQuoted(text, to: &out)
    case .binary(let bytes):
      appendHead(#"{"dir":"S>","kind":"binary"#, after: after, to: &out)
      if let text = String(validating: bytes, as: UTF8.self) {
        out.append(contentsOf: #","body":"#.utf8)
        Self.appendQuoted(text, to: &out)
      } else {
        out.append(contentsOf: #","encoding":"base64","body":""#.utf8)
        Base64.encode(bytes, into: &out)
        out.append(UInt8(ascii: "\""))
      }
    }
  }

  /// What happened to the session itself (`"dir":"--"`), with its fields.
  private func appendEvent(_ what: RecordedStep.What, after: Int64, to out: inout [UInt8]) {
    switch what {
    case .connected(let attempt):
      appendHead(#"{"dir":"--","kind":"connected"#, after: after, to: &out)
      out.append(contentsOf: #","attempt":"#.utf8)
      Self.appendDecimal(Int64(attempt), to: &out)
    case .disconnected(let attempt, let retryIn, let reason):
      appendHead(#"{"dir":"--","kind":"disconnected"#, after: after, to: &out)
      out.append(contentsOf: #","attempt":"#.utf8)
      Self.appendDecimal(Int64(attempt), to: &out)
      out.append(contentsOf: #","retry_ns":"#.utf8)
      Self.appendDecimal(retryIn.wholeNanoseconds, to: &out)
      out.append(contentsOf: #","reason":"#.utf8)
      JSONEscaping.appendQuoted(reason, to: &out)
    case .opened:
      appendHead(#"{"dir":"--","kind":"opened"#, after: after, to: &out)
    case .tick:
      appendHead(#"{"dir":"--","kind":"tick"#, after: after, to: &out)
    case .command(let command):
      appendHead(#"{"dir":"--","kind":"command"#, after: after, to: &out)
      let (op, symbols): (String, [String]) =
        switch command {
        case .add(let s): ("add", s)
        case .remove(let s): ("remove", s)
        case .replace(let s): ("replace", s)
        }
      out.append(contentsOf: #","op":""#.utf8)
      out.append(contentsOf: op.utf8)
      out.append(contentsOf: #"","symbols":"#.utf8)
      Self.appendList(symbols, to: &out)
    case .control(let line):
      appendHead(#"{"dir":"--","kind":"control"#, after: after, to: &out)
      out.append(contentsOf: #","line":"#.utf8)
      JSONEscaping.appendQuoted(line, to: &out)
    case .end(let end):
      appendHead(#"{"dir":"--","kind":"end"#, after: after, to: &out)
      out.append(contentsOf: #","outcome":""#.utf8)
      out.append(contentsOf: end.rawValue.utf8)
      out.append(UInt8(ascii: "\""))
    case .message, .exchanged:
      break  // `append(_:to:)` writes these itself
    }
  }

  private static func appendList(_ items: [String], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, item) in items.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      JSONEscaping.appendQuoted(item, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// Decimal digits without a `String` in between.
  static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 {
      out.append(UInt8(ascii: "-"))
      if value == .min {
        out.append(contentsOf: "9223372036854775808".utf8)
        return
      }
    }
    var magnitude = value.magnitude
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      out.append(contentsOf: buffer[(20 - count)...])
    }
  }

  /// A JSON string: runs of plain ASCII are copied whole, ASCII controls escaped; text with
  /// anything beyond ASCII goes through `JSONEscaping` (which also escapes what could drive a
  /// terminal).
  static func appendQuoted(_ text: String, to out: inout [UInt8]) {
    var text = text
    let ascii = text.withUTF8 { bytes -> Bool in
      // Two passes: the escaped length (and whether it is all ASCII), then the bytes written in
      // place, since appending short runs one by one costs more than the copying.
      var extra = 0
      for byte in bytes {
        if byte >= 0x80 { return false }
        if byte < 0x20 || byte == 0x7F {
          extra += byte == 0x0A || byte == 0x0D || byte == 0x09 ? 1 : 5
        } else if byte == 0x22 || byte == 0x5C {
          extra += 1
        }
      }
      let start = out.count
      out.append(contentsOf: repeatElement(0, count: bytes.count + extra + 2))
      out.withUnsafeMutableBufferPointer { buffer in
        var at = start
        buffer[at] = 0x22
        at += 1
        guard extra > 0 else {
          _ = UnsafeMutableBufferPointer(rebasing: buffer[at..<(at + bytes.count)]).initialize(
            fromContentsOf: bytes)
          buffer[at + bytes.count] = 0x22
          return
        }
        for byte in bytes {
          if byte >= 0x20 && byte != 0x7F && byte != 0x22 && byte != 0x5C {
            buffer[at] = byte
            at += 1
            continue
          }
          buffer[at] = 0x5C
          switch byte {
          case 0x22, 0x5C: buffer[at + 1] = byte
          case 0x0A: buffer[at + 1] = UInt8(ascii: "n")
          case 0x0D: buffer[at + 1] = UInt8(ascii: "r")
          case 0x09: buffer[at + 1] = UInt8(ascii: "t")
          default:
            buffer[at + 1] = UInt8(ascii: "u")
            buffer[at + 2] = 0x30
            buffer[at + 3] = 0x30
            buffer[at + 4] = Hex.digit(byte >> 4, .lower)
            buffer[at + 5] = Hex.digit(byte, .lower)
            at += 4
          }
          at += 2
        }
        buffer[at] = 0x22
      }
      return true
    }
    if !ascii { JSONEscaping.appendQuoted(text, to: &out) }
  }

  /// `,"stream":"top-of-book"` for a run of the best bid and ask; nothing for trades.
  private static func appendStream(_ stream: MarketStream, to out: inout [UInt8]) {
    guard stream != .trades else { return }
    out.append(contentsOf: #","stream":"#.utf8)
    JSONEscaping.appendQuoted(stream.rawValue, to: &out)
  }
}

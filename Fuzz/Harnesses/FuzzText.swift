import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: the escaping of text for terminals and JSON (symbols from servers, close
// reasons, error texts) on arbitrary bytes. Built by Fuzz/run.sh.
import Venues

/// The inverse of `TerminalText.escaped`: `\t \n \r \\ \xHH \uHHHH`.
private func unescape(_ text: String) -> String? {
  var out = String.UnicodeScalarView()
  var scalars = Array(text.unicodeScalars)[...]
  func hex(_ count: Int) -> Unicode.Scalar? {
    guard scalars.count >= count,
      let value = UInt32(String(String.UnicodeScalarView(scalars.prefix(count))), radix: 16)
    else { return nil }
    scalars = scalars.dropFirst(count)
    return Unicode.Scalar(value)
  }
  while let scalar = scalars.popFirst() {
    guard scalar == "\\" else {
      out.append(scalar)
      continue
    }
    switch scalars.popFirst() {
    case "t": out.append("\t")
    case "n": out.append("\n")
    case "r": out.append("\r")
    case "\\": out.append("\\")
    case "x": guard let s = hex(2) else { return nil }; out.append(s)
    case "u": guard let s = hex(4) else { return nil }; out.append(s)
    default: return nil
    }
  }
  return String(out)
}

/// Whether `bytes` hold anything a terminal acts on: C0 controls, DEL, C1 controls in UTF-8,
/// and the bidirectional and line-separating characters (as UTF-8).
private func hasControls(_ bytes: [UInt8]) -> Bool {
  for (i, b) in bytes.enumerated() {
    if b < 0x20 || b == 0x7F { return true }
    if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { return true }
  }
  let text = String(decoding: bytes, as: UTF8.self)
  let invisible: Set<UInt32> = [
    0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
    0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF,
  ]
  return text.unicodeScalars.contains { invisible.contains($0.value) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

  let escaped = TerminalText.escaped(text)
  precondition(!hasControls(Array(escaped.utf8)), "a control character survived escaping")
  precondition(unescape(escaped) == text, "escaping does not round-trip")
  precondition(TerminalText.isSafe(text) == (escaped == text), "isSafe disagrees with escaping")

  // JSON output (subscribe messages, --format json) parses back to the same string and shows no
  // control character either.
  let quoted = JSONEscaping.quoted(text)
  precondition(!hasControls(Array(quoted.utf8)), "a control character survived JSON escaping")
  do throws(JSONError) {
    let parsed = try JSONParser().parse(quoted)
    precondition(parsed == .string(text), "JSON escaping does not round-trip")
  } catch {
    fatalError("JSON escaping produced invalid JSON: \(error)")
  }
  return 0
}

/// Whether a text message is one whole JSON text (an object or an array, nothing after it), by
/// one pass over its bytes that only tracks nesting and strings. Not a validator: it is how the
/// URLSession engine on Linux notices a message corelibs cut apart (over ~4 KiB) or handed over
/// one fragment at a time — a piece of a JSON text is never a whole one, as the first piece
/// leaves a bracket open and a later one starts inside. Every provider the ticker speaks sends
/// JSON objects. Pure.
public enum WholeJSONCheck {
  public static func isWhole(_ bytes: some Collection<UInt8>) -> Bool {
    var depth = 0
    var inString = false
    var escaped = false
    var started = false
    var ended = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        continue
      default:
        break
      }
      if ended { return false }  // something after the top-level value
      if !started {
        guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else { return false }
        started = true
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth < 0 { return false }
        if depth == 0 { ended = true }
      case UInt8(ascii: "\""): inString = true
      default: break
      }
    }
    return started && ended && !inString
  }
}

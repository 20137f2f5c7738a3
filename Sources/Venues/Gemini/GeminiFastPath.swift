import JSON

/// Recognises Gemini's book updates — after each symbol's first, every `l2_updates` is book
/// changes only, as frequent as trades and larger — straight from the UTF-8 bytes, without a
/// `JSONValue` tree: `{"type":"l2_updates","symbol":"BTCUSD","changes":[["buy","97412.55","0.07626"],…]}`.
///
/// Deliberately narrow: exactly the members `type`, `symbol` and `changes` (in any order, each
/// once), `changes` an array of arrays of plain strings, the strings printable ASCII without
/// escapes. Anything else (a `trades` member, a duplicated key, a number among the changes)
/// gives nil and is left to the model path (`GeminiMessage`), which answers the same wherever
/// this one does.
enum GeminiFastPath {
  /// The symbol of a message that is a book update and nothing more; nil otherwise.
  static func bookUpdate(_ bytes: UnsafeRawBufferPointer) -> String? {
    var s = JSONByteScanner(bytes: bytes)
    s.skipSpace()
    guard s.take(UInt8(ascii: "{")) else { return nil }
    var typed = false
    var changed = false
    var symbol: JSONByteScanner.Span? = nil
    repeat {
      s.skipSpace()
      guard let key = s.simpleString() else { return nil }
      s.skipSpace()
      guard s.take(UInt8(ascii: ":")) else { return nil }
      s.skipSpace()
      if key.equals("type", in: bytes) {
        guard !typed, let value = s.simpleString(), value.equals("l2_updates", in: bytes) else { return nil }
        typed = true
      } else if key.equals("symbol", in: bytes) {
        guard symbol == nil, let value = s.simpleString(), value.count > 0 else { return nil }
        symbol = value
      } else if key.equals("changes", in: bytes) {
        guard !changed, skipChanges(&s) else { return nil }
        changed = true
      } else {
        return nil
      }
      s.skipSpace()
    } while s.take(UInt8(ascii: ","))
    guard s.take(UInt8(ascii: "}")) else { return nil }
    s.skipSpace()
    guard s.atEnd, typed, changed, let symbol else { return nil }
    return symbol.string(in: bytes)
  }

  /// `[[…],…]`, each inner array of plain strings (`["buy","97412.55","0.07626"]`), skipped.
  static func skipChanges(_ s: inout JSONByteScanner) -> Bool {
    guard s.take(UInt8(ascii: "[")) else { return false }
    s.skipSpace()
    if s.take(UInt8(ascii: "]")) { return true }
    repeat {
      s.skipSpace()
      guard s.take(UInt8(ascii: "[")) else { return false }
      s.skipSpace()
      if !s.take(UInt8(ascii: "]")) {
        repeat {
          s.skipSpace()
          guard s.simpleString() != nil else { return false }
          s.skipSpace()
        } while s.take(UInt8(ascii: ","))
        guard s.take(UInt8(ascii: "]")) else { return false }
      }
      s.skipSpace()
    } while s.take(UInt8(ascii: ","))
    return s.take(UInt8(ascii: "]"))
  }
}

/// How many terminal columns text takes, for aligning columns: most characters take one, East
/// Asian wide and full-width characters (`비트코인`, `ＢＴＣ`) and most emoji take two, and combining
/// marks and format characters take none. Meant for text already passed through `TerminalText`
/// (no control characters left). A small table of the common wide ranges, not the whole of
/// Unicode's East Asian Width: a rare character may be measured one column off, which costs
/// alignment, never correctness.
public enum TerminalWidth {
  /// The columns `text` takes.
  public static func columns(_ text: String) -> Int {
    var total = 0
    for scalar in text.unicodeScalars { total += columns(scalar) }
    return total
  }

  /// The columns one scalar takes: 0, 1 or 2.
  public static func columns(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return 1 }  // ASCII and Latin: the usual symbol, at once
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    return isWide(value) ? 2 : 1
  }

  /// At most `limit` columns of `text`; when it had to be cut, the last column shows `…`.
  public static func truncate(_ text: String, to limit: Int) -> String {
    guard limit > 0 else { return "" }
    guard columns(text) > limit else { return text }
    var kept = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      let width = columns(scalar)
      if used + width > limit - 1 { break }
      kept.append(scalar)
      used += width
    }
    return String(kept) + "…"
  }

  /// `text` followed by spaces up to `width` columns.
  public static func padRight(_ text: String, to width: Int) -> String {
    let missing = width - columns(text)
    return missing > 0 ? text + String(repeating: " ", count: missing) : text
  }

  /// Spaces up to `width` columns, then `text`.
  public static func padLeft(_ text: String, to width: Int) -> String {
    let missing = width - columns(text)
    return missing > 0 ? String(repeating: " ", count: missing) + text : text
  }

  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
      0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
      0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
      0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
      0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
      0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF, 0x1B000...0x1B2FF,
      0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F2FF, 0x1F300...0x1F64F,
      0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}

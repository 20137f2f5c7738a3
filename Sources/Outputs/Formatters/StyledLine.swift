/// One line of a terminal view being put together: pieces of text, some with a style, and the
/// columns they take. Rendered with or without the styles' escape codes, cut to a width.
struct StyledLine: Sendable {
  private(set) var pieces: [(text: String, style: TerminalStyle?)] = []
  private(set) var width = 0

  mutating func add(_ text: String, _ style: TerminalStyle? = nil) {
    guard !text.isEmpty else { return }
    pieces.append((text, style))
    width += TerminalWidth.columns(text)
  }

  /// The two spaces between columns.
  mutating func gap() { add("  ") }

  /// The line in at most `limit` columns (cut with `…`), without trailing spaces; styles as SGR
  /// codes only with `color`.
  func render(limit: Int, color: Bool) -> String {
    var kept = pieces
    if width > limit {
      kept = []
      var used = 0
      for piece in pieces {
        let columns = TerminalWidth.columns(piece.text)
        if used + columns <= limit - 1 {
          kept.append(piece)
          used += columns
          continue
        }
        let room = limit - 1 - used
        if room > 0 {
          var cut = String.UnicodeScalarView()
          var taken = 0
          for scalar in piece.text.unicodeScalars {
            let w = TerminalWidth.columns(scalar)
            if taken + w > room { break }
            cut.append(scalar)
            taken += w
          }
          kept.append((String(cut), piece.style))
        }
        if limit > 0 { kept.append(("…", nil)) }
        break
      }
    }
    while let last = kept.last, last.text.last == " " {
      var text = last.text
      while text.last == " " { text.removeLast() }
      kept.removeLast()
      if !text.isEmpty { kept.append((text, last.style)) }
    }
    var out = ""
    for piece in kept {
      if let style = piece.style {
        out += style.wrap(piece.text, enabled: color)
      } else {
        out += piece.text
      }
    }
    return out
  }
}

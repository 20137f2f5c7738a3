/// One line of the control protocol (`--control stdin`), parsed without side effects:
///
///     +SYMBOL[,SYMBOL…]   add
///     -SYMBOL[,SYMBOL…]   remove
///     =SYMBOL[,SYMBOL…]   replace the whole set
///     ?                   print the current set on stderr
///
/// Spaces around the line and around each symbol are ignored (spaces inside a symbol are kept:
/// `IC MARKETS:1`); blank lines and lines starting with `#` are ignored.
public enum ControlLine: Sendable, Equatable {
  case command(SubscriptionCommand)
  case query
  /// Nothing to do (blank or a comment).
  case nothing

  public static func parse(_ line: String) -> Result<ControlLine, ControlLineError> {
    let text = trimmed(Substring(line))
    guard let first = text.first else { return .success(.nothing) }
    if first == "#" { return .success(.nothing) }
    if text == "?" { return .success(.query) }
    let rest = text.dropFirst()
    let symbols = rest.split(separator: ",", omittingEmptySubsequences: false).map { String(trimmed($0)) }
    switch first {
    case "+", "-", "=":
      guard !symbols.isEmpty, symbols.allSatisfy({ !$0.isEmpty }) else {
        return .failure(.missingSymbol(String(text)))
      }
      if first == "+" { return .success(.command(.add(symbols))) }
      if first == "-" { return .success(.command(.remove(symbols))) }
      return .success(.command(.replace(symbols)))
    default:
      return .failure(.unknownCommand(String(text)))
    }
  }

  private static func trimmed(_ text: Substring) -> Substring {
    var s = text
    while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
    return s
  }
}

/// Why a control line changed nothing.
public enum ControlLineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not one of `+ - = ?`.
  case unknownCommand(String)
  /// `+`, `-` or `=` without a symbol, or an empty one between commas.
  case missingSymbol(String)
  /// The venue cannot have this symbol: the symbol and why.
  case invalidSymbol(String, String)
  /// The line was longer than the limit (bytes).
  case tooLong(Int)

  public var description: String {
    switch self {
    case .unknownCommand(let line):
      "unknown control line \"\(line)\" (use +SYMBOL to add, -SYMBOL to remove, =A,B to replace, ? to list)"
    case .missingSymbol(let line): "\"\(line)\" names no symbol (e.g. +BINANCE:ETHUSDT)"
    case .invalidSymbol(let symbol, let why): "\"\(symbol)\" is not a symbol here: \(why)"
    case .tooLong(let limit): "a control line is at most \(limit) bytes"
    }
  }
}

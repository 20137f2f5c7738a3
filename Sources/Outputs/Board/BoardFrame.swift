/// One screenful of the board: exactly one line per terminal row, top to bottom, each at most
/// one column narrower than the terminal (the last column is never written, so nothing ever
/// wraps or scrolls) and without trailing spaces. Lines hold SGR colour codes only when the
/// board is coloured, and never any other escape: positioning is `TerminalScreen`'s.
public struct BoardFrame: Sendable, Equatable {
  public var lines: [String]

  public init(lines: [String]) {
    self.lines = lines
  }
}

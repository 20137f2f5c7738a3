import FeedRuntime
import Outputs
import Testing
import Venues

@testable import FeedRuntime
@testable import Outputs

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct TerminalScreenTests {
  func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test("the first frame writes every row at its place, each followed by erase-to-end-of-line")
  func firstFrame() {
    let frame = BoardFrame(lines: ["HEADER", "A  1", "", "status"])
    #expect(
      text(TerminalScreen.update(from: [], to: frame))
        == "\u{1B}[1;1HHEADER\u{1B}[K\u{1B}[2;1HA  1\u{1B}[K\u{1B}[3;1H\u{1B}[K\u{1B}[4;1Hstatus\u{1B}[K")
  }

  @Test("later frames write only the rows that changed; an unchanged frame writes nothing")
  func changedRowsOnly() {
    let before = BoardFrame(lines: ["HEADER", "A  1", "B  2", "status 1"])
    let after = BoardFrame(lines: ["HEADER", "A  1.5", "B  2", "status 2"])
    #expect(
      text(TerminalScreen.update(from: before.lines, to: after))
        == "\u{1B}[2;1HA  1.5\u{1B}[K\u{1B}[4;1Hstatus 2\u{1B}[K")
    #expect(TerminalScreen.update(from: after.lines, to: after).isEmpty)
    // Unknown rows (after a resize or Ctrl-Z) are written again.
    #expect(text(TerminalScreen.update(from: [nil, "A  1.5"], to: after)).hasPrefix("\u{1B}[1;1HHEADER"))
  }

  @Test("entering and leaving: alternate screen and hidden cursor, then reset, cursor, normal screen")
  func modes() {
    #expect(TerminalScreen.enterSequence == "\u{1B}[?1049h\u{1B}[?25l")
    #expect(TerminalScreen.leaveSequence == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
  }

  @Test("a descriptor that is not a terminal has no size")
  func noSize() {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { fds.forEach { close($0) } }
    #expect(TerminalScreen.size(of: fds[1]) == nil)
  }
}

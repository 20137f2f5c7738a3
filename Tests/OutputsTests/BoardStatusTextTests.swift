import Testing

@testable import Outputs

/// What the board's status line shows of a stderr line it holds, in either log format.
@Suite struct BoardStatusTextTests {
  @Test func aTextLineLosesItsPrefix() {
    #expect(
      BoardOutput.statusText(Array("ticker: warning: no price for MSFT for 30 s\n".utf8))
        == "warning: no price for MSFT for 30 s")
  }

  @Test func aJSONLineShowsItsWordsNotTheObject() {
    let line =
      #"{"time":"2026-12-06T07:00:00.000Z","level":"warning","event":"stale","message":"no price for MSFT for 30 s","symbol":"MSFT"}"#
    #expect(BoardOutput.statusText(Array((line + "\n").utf8)) == "warning: no price for MSFT for 30 s")
    let info =
      #"{"time":"2026-12-06T07:00:00.000Z","level":"info","event":"recovered","message":"MSFT has prices again"}"#
    #expect(BoardOutput.statusText(Array(info.utf8)) == "MSFT has prices again")
  }

  @Test func aJSONMessageNeverReachesTheTerminalRaw() {
    let line =
      #"{"time":"2026-12-06T07:00:00.000Z","level":"error","event":"message","message":"bad \u001b[2J"}"#
    let shown = BoardOutput.statusText(Array(line.utf8))
    #expect(!shown.utf8.contains(0x1B))
    #expect(shown.hasPrefix("error: bad "))
  }
}

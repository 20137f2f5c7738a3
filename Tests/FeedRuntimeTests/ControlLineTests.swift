import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Recording

@Suite struct ControlLineTests {
  @Test(arguments: [
    ("+AAPL", ControlLine.command(.add(["AAPL"]))),
    (
      "  +AAPL, BINANCE:ETHUSDT ,IC MARKETS:1\r", .command(.add(["AAPL", "BINANCE:ETHUSDT", "IC MARKETS:1"]))
    ),
    ("-AAPL", .command(.remove(["AAPL"]))),
    ("=A,B", .command(.replace(["A", "B"]))),
    ("?", .query),
    (" ? ", .query),
    ("", .nothing),
    ("   ", .nothing),
    ("# a comment", .nothing),
  ])
  func parses(line: String, expected: ControlLine) {
    #expect(ControlLine.parse(line) == .success(expected))
  }

  @Test(arguments: [
    ("AAPL", ControlLineError.unknownCommand("AAPL")),
    ("*AAPL", .unknownCommand("*AAPL")),
    ("+", .missingSymbol("+")),
    ("+A,,B", .missingSymbol("+A,,B")),
    ("-A,", .missingSymbol("-A,")),
    ("=", .missingSymbol("=")),
    ("??", .unknownCommand("??")),
  ])
  func refuses(line: String, error: ControlLineError) {
    #expect(ControlLine.parse(line) == .failure(error))
  }

  @Test func errorsSayWhatToDo() {
    #expect(
      "\(ControlLineError.unknownCommand("AAPL"))"
        == #"unknown control line "AAPL" (use +SYMBOL to add, -SYMBOL to remove, =A,B to replace, ? to list)"#
    )
    #expect("\(ControlLineError.missingSymbol("+"))" == #""+" names no symbol (e.g. +BINANCE:ETHUSDT)"#)
  }

  @Test func linesAreSplitAndBounded() {
    var splitter = LineSplitter(limit: 8)
    #expect(splitter.feed(Array("+A\n-B".utf8)) == [.text("+A")])
    #expect(splitter.feed(Array("\n+123456789\n?\n".utf8)) == [.text("-B"), .tooLong, .text("?")])
    #expect(splitter.feed(Array("+12345678901234".utf8)) == [.tooLong])
    #expect(splitter.feed(Array("5\n=C".utf8)) == [])
    #expect(splitter.finish() == .text("=C"))
  }
}

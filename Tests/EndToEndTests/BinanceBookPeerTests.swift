import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on Binance: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing `<symbol>@bookTicker` messages on the combined stream.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct BinanceBookPeerTests {
  @Test("every book ticker prints as sent, timed on arrival; a size-only change is a row of its own")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run("binance", path: "/stream", symbols: "BTCUSDT", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.first == BookPeerRun.header, "\(result.stdout)")
    // No time in a book ticker: each row has its arrival's.
    let rows = result.stdoutLines.dropFirst().map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
    #expect(rows.allSatisfy { $0.count == 2 && $0[0].hasSuffix("Z") && $0[0].count == 24 }, "\(rows)")
    #expect(
      rows.map(\.last) == [
        "BTCUSDT\t97250.01000000\t97250.02000000\t3.41877000\t0.58410000",
        "BTCUSDT\t97250.01000000\t97250.02000000\t3.41003000\t0.58410000",
        "BTCUSDT\t97249.80000000\t97250.02000000\t0.00012000\t0.60000000",
      ], "\(result.stdout)")
    let request = #"{"method":"SUBSCRIBE","params":["btcusdt@bookTicker"],"id":1}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("debounced, an update that only moves a size is not printed again")
  func dedupe() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/binance.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let ticker = try RunningTicker(
      [
        "--provider", "binance", "--url", "ws://127.0.0.1:\(port)/stream", "-s", "BTCUSDT", "--bid-ask",
        "--debounce", "0", "--format", "tsv",
      ], environment: TickerProcess.cleanEnvironment())
    let lines = await ticker.lines(3)
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(lines.count == 3 && ticker.allLines().count == 3, "\(ticker.allLines())")
    #expect(
      ticker.allLines().dropFirst().map {
        $0.split(separator: "\t").dropFirst(2).prefix(2).joined(separator: " ")
      } == [
        "97250.01000000 97250.02000000", "97249.80000000 97250.02000000",
      ])
    await peer.finish()
  }
}

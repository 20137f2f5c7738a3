import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Bybit: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Bybit's `orderbook.1` snapshot and deltas, and against
/// its own demo.
@Suite("ticker --bid-ask against Bybit's level-1 book", .requires(.pythonWebsockets), .timeLimit(.minutes(2)))
struct BybitBookPeerTests {
  @Test("the book peer: a row after each message that leaves both sides full, the request exactly")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/bybit.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "bybit", "--url", "ws://127.0.0.1:\(port)/v5/public/spot", "-s", "btcusdt", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "4",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    // The delete of the only ask leaves a side empty: no row for it.
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2024-12-06T01:53:20.000Z\tBTCUSDT\t97250.00\t97250.01\t1.2\t0.4",
        "2024-12-06T01:53:20.123Z\tBTCUSDT\t97250.00\t97250.01\t1.2\t0.35",
        "2024-12-06T01:53:20.457Z\tBTCUSDT\t97249.50\t97250.01\t0.8\t0.35",
        "2024-12-06T01:53:21.380Z\tBTCUSDT\t97249.50\t97250.20\t0.8\t1.05",
      ], "\(result.stdout)\n\(result.stderr)")
    #expect(
      await peer.expect { $0 == #"GOT {"req_id":"1","op":"subscribe","args":["orderbook.1.BTCUSDT"]}"# }
        != nil,
      "\(peer.all)")
    await peer.finish()
  }

  @Test("--demo --bid-ask: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "bybit", "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutLines
    #expect(lines.first == "time\tsymbol\tbid\task\tbid_size\task_size", "\(result.stdout)")
    let rows = lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      #expect(row.count == 6 && row[1] == "BTCUSDT", "\(row)")
      guard row.count == 6, let bid = Double(row[2]), let ask = Double(row[3]) else {
        Issue.record("not a row of bid and ask: \(row)")
        continue
      }
      #expect(bid < ask, "\(row)")
    }
  }
}

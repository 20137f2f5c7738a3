import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Hyperliquid: the built ticker against `Tests/Support/book_peer.py`
/// playing Hyperliquid's `bbo` messages (the greeting, the answer, a side gone empty), and
/// against the demo's emulated Hyperliquid.
@Suite(
  "ticker --bid-ask against an independent Hyperliquid peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct HyperliquidBookPeerTests {
  @Test("the built ticker: each bbo from the first, none taken as history; an empty side prints nothing")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/hyperliquid.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "hyperliquid", "--url", "ws://127.0.0.1:\(port)/ws", "-s", "BTC", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "3",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2024-12-06T01:53:20.000Z\tBTC\t97250.0\t97251.0\t1.2\t0.4",
        "2024-12-06T01:53:20.913Z\tBTC\t97252.0\t97253.0\t0.01123\t3.5",
        "2024-12-06T01:53:21.488Z\tBTC\t97252.0\t97253.0\t0.5\t3.5",
      ], "\(result.stdout)")
    #expect(
      await peer.expect { $0 == #"GOT {"method":"subscribe","subscription":{"type":"bbo","coin":"BTC"}}"# }
        != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("the demo's Hyperliquid serves a live book: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      [
        "--demo", "--bid-ask", "--provider", "hyperliquid", "--every-trade", "--format", "tsv", "--count",
        "5",
      ],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.first == "time\tsymbol\tbid\task\tbid_size\task_size")
    let rows = result.stdoutLines.dropFirst().map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      #expect(row.count == 6 && row[1] == "BTC", "\(row)")
      guard row.count == 6, let bid = Double(row[2]), let ask = Double(row[3]) else { continue }
      #expect(bid < ask, "\(row)")
    }
  }
}

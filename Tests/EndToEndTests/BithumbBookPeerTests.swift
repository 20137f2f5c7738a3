import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Bithumb: the built ticker against `Tests/Support/book_peer.py` playing
/// Bithumb's `orderbook` messages (binary frames, DEFAULT keys), and against the demo's emulated
/// Bithumb.
@Suite(
  "ticker --bid-ask against an independent Bithumb peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct BithumbBookPeerTests {
  @Test("the built ticker: each book's first unit, and the orderbook request")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/bithumb.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "bithumb", "--url", "ws://127.0.0.1:\(port)/websocket/v1", "-s", "KRW-BTC", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "3",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2026-07-10T04:39:41.398Z\tKRW-BTC\t95539000\t95540000\t0.51002\t0.0123",
        "2026-07-10T04:39:41.574Z\tKRW-BTC\t95539000\t95541000\t0.51002\t0.4",
        "2026-07-10T04:39:42.001Z\tKRW-BTC\t95540000\t95541000\t0.005\t0.4",
      ], "\(result.stdout)")
    let request = #"{"type":"orderbook","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#
    #expect(
      await peer.expect { $0.hasPrefix(#"GOT [{"ticket":""#) && $0.hasSuffix(request) } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("the demo's Bithumb serves a live book: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "bithumb", "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.first == "time\tsymbol\tbid\task\tbid_size\task_size")
    let rows = result.stdoutLines.dropFirst().map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      #expect(row.count == 6 && row[1] == "KRW-BTC", "\(row)")
      guard row.count == 6, let bid = Double(row[2]), let ask = Double(row[3]) else { continue }
      #expect(bid < ask, "\(row)")
    }
  }
}

import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on Coinbase: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Coinbase Exchange `ticker` messages, read for their best
/// bid and ask; and against the demo.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct CoinbaseBookPeerTests {
  @Test("every best bid and ask prints exactly as sent; the subscription is the ticker channel's")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/coinbase.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "coinbase", "--url", "ws://127.0.0.1:\(port)/", "-s", "BTC-USD", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "3",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2026-08-25T03:35:57.198Z\tBTC-USD\t80691.52\t80691.53\t0.35000000\t0.01200000",
        "2026-08-25T03:35:57.412Z\tBTC-USD\t80690.01\t80691.53\t0.00125000\t0.01200000",
        "2026-08-25T03:35:58.000Z\tBTC-USD\t80690.01\t80692\t\t",
      ], "\(result.stdout)")
    let request = #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker"]}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("the demo: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "coinbase", "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdoutLines.dropFirst().map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    #expect(result.stdoutLines.first == "time\tsymbol\tbid\task\tbid_size\task_size", "\(result.stdout)")
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      let bid = row.count > 3 ? Decimal(string: String(row[2])) : nil
      let ask = row.count > 3 ? Decimal(string: String(row[3])) : nil
      #expect(bid != nil && ask != nil && bid! < ask!, "\(row)")
    }
  }
}

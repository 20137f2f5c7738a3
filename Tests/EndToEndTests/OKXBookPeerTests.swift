import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on OKX: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing OKX `bbo-tbt` pushes; and against the demo.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct OKXBookPeerTests {
  @Test("every best bid and ask prints exactly as sent; the subscription is bbo-tbt's, numbered")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/okx.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "okx", "--url", "ws://127.0.0.1:\(port)/ws/v5/public", "-s", "BTC-USDT", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "3",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2024-12-06T01:53:20.000Z\tBTC-USDT\t97250\t97250.1\t1.2\t0.5",
        "2024-12-06T01:53:20.012Z\tBTC-USDT\t97250\t97250.1\t1.2\t0.48179",
        "2024-12-06T01:53:20.105Z\tBTC-USDT\t97249.8\t97249.9\t0.61\t0.00001",
      ], "\(result.stdout)")
    let request = #"{"id":"1","op":"subscribe","args":[{"channel":"bbo-tbt","instId":"BTC-USDT"}]}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("the demo: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "okx", "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.first == "time\tsymbol\tbid\task\tbid_size\task_size", "\(result.stdout)")
    let rows = result.stdoutLines.dropFirst().map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      let bid = row.count > 3 ? Decimal(string: String(row[2])) : nil
      let ask = row.count > 3 ? Decimal(string: String(row[3])) : nil
      #expect(bid != nil && ask != nil && bid! < ask!, "\(row)")
    }
  }
}

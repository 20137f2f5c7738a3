import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on Kraken: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Kraken v2 tickers triggered by the best bid and ask;
/// and against the demo.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct KrakenBookPeerTests {
  @Test("every best bid and ask prints exactly as sent; the subscribe asks for event_trigger bbo")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/kraken.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "kraken", "--url", "ws://127.0.0.1:\(port)/v2", "-s", "BTC/USD", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "3",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2026-09-21T14:02:11.462Z\tBTC/USD\t80912.3\t80912.4\t0.52031211\t3.04471102",
        "2026-09-21T14:02:11.503Z\tBTC/USD\t80912.3\t80912.4\t0.50031211\t3.04471102",
        "2026-09-21T14:02:11.861Z\tBTC/USD\t80912.0\t80912.4\t1.2\t2.95",
      ], "\(result.stdout)")
    let request =
      #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"],"event_trigger":"bbo"},"req_id":1}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("the demo: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "kraken", "--every-trade", "--format", "tsv", "--count", "5"],
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

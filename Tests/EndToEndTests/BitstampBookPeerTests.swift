import Foundation
import TestSupport
import Testing
import Venues

/// `ticker --bid-ask` on Bitstamp: its `order_book_<market>` channels against an independent peer
/// (`Tests/Support/book_peer.py` playing `Tests/Fixtures/book/bitstamp.json`, whole books in
/// Bitstamp's shape), and against the demo's emulated Bitstamp.
@Suite(
  "ticker --bid-ask against an independent Bitstamp peer", .requires(.pythonWebsockets),
  .timeLimit(.minutes(2)),
  .ownThread)
struct BitstampBookPeerTests {
  @Test("the built ticker: each book's first bid and ask, the texts and times as sent, one row per update")
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python(
      "book_peer.py", [Fixture.directory.appendingPathComponent("book/bitstamp.json").path])
    let result = try await TickerProcess.run(
      [
        "--provider", "bitstamp", "--url", "ws://127.0.0.1:\(port)/", "-s", "btcusd,ethusd", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "5",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2024-12-06T01:53:20.123Z\tbtcusd\t97250\t97251\t0.12345678\t0.50000000",
        "2024-12-06T01:53:20.402Z\tethusd\t3862.4\t3862.9\t4.10000000\t0.80000000",
        "2024-12-06T01:53:20.377Z\tbtcusd\t97250\t97251\t0.10000000\t0.50000000",
        "2024-12-06T01:53:21.004Z\tbtcusd\t97249\t97250.5\t0.50000000\t0.25000000",
        "2024-12-06T01:53:21.250Z\tethusd\t3862.5\t3862.9\t0.01000000\t0.80000000",
      ], "\(result.stdout)\n\(result.stderr)")
    for market in ["btcusd", "ethusd"] {
      let request = #"{"event":"bts:subscribe","data":{"channel":"order_book_\#(market)"}}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    #expect(!peer.all.contains { $0.contains("live_trades_") }, "\(peer.all)")
    await peer.finish()
  }

  @Test("--demo: the emulated Bitstamp's books, five rows with the bid under the ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "bitstamp", "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdoutLines.filter { !$0.hasPrefix("time\t") }
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      let columns = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      #expect(columns.count == 6, "\(row)")
      guard columns.count == 6, let bid = Price(columns[2]), let ask = Price(columns[3]) else {
        Issue.record("not a book row: \(row)")
        continue
      }
      #expect(bid < ask, "\(row)")
      #expect(columns[1] == "btcusd", "\(row)")
    }
  }
}

import Foundation
import TestSupport
import Testing
import Venues

/// `ticker --bid-ask` on Bitstamp: its `order_book_<market>` channels against an independent peer
/// (`Tests/Support/book_peer.py` playing `Tests/Fixtures/book/bitstamp.json`, whole books in
/// Bitstamp's shape).
@Suite(
  "ticker --bid-ask against an independent Bitstamp peer", .requires(.pythonWebsockets),
  .timeLimit(.minutes(2)),
  .ownThread)
struct BitstampBookPeerTests {
  @Test("the built ticker: each book's first bid and ask, the texts and times as sent, one row per update")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run("bitstamp", path: "/", symbols: "btcusd,ethusd", count: 5)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
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
}

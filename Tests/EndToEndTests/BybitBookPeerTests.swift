import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Bybit: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Bybit's `orderbook.1` snapshot and deltas, and against.
@Suite("ticker --bid-ask against Bybit's level-1 book", .requires(.pythonWebsockets), .timeLimit(.minutes(2)))
struct BybitBookPeerTests {
  @Test("the book peer: a row after each message that leaves both sides full, the request exactly")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run(
      "bybit", path: "/v5/public/spot", symbols: "btcusdt", count: 4)
    #expect(result.status == 0, "\(result.stderr)")
    // The delete of the only ask leaves a side empty: no row for it.
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
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
}

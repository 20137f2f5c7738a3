import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on Coinbase: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Coinbase Exchange `ticker` messages, read for their best
/// bid and ask.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct CoinbaseBookPeerTests {
  @Test("every best bid and ask prints exactly as sent; the subscription is the ticker channel's")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run("coinbase", path: "/", symbols: "BTC-USD", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
        "2026-08-25T03:35:57.198Z\tBTC-USD\t80691.52\t80691.53\t0.35000000\t0.01200000",
        "2026-08-25T03:35:57.412Z\tBTC-USD\t80690.01\t80691.53\t0.00125000\t0.01200000",
        "2026-08-25T03:35:58.000Z\tBTC-USD\t80690.01\t80692\t\t",
      ], "\(result.stdout)")
    let request = #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker"]}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }
}

import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on OKX: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing OKX `bbo-tbt` pushes.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct OKXBookPeerTests {
  @Test("every best bid and ask prints exactly as sent; the subscription is bbo-tbt's, numbered")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run(
      "okx", path: "/ws/v5/public", symbols: "BTC-USDT", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
        "2024-12-06T01:53:20.000Z\tBTC-USDT\t97250\t97250.1\t1.2\t0.5",
        "2024-12-06T01:53:20.012Z\tBTC-USDT\t97250\t97250.1\t1.2\t0.48179",
        "2024-12-06T01:53:20.105Z\tBTC-USDT\t97249.8\t97249.9\t0.61\t0.00001",
      ], "\(result.stdout)")
    let request = #"{"id":"1","op":"subscribe","args":[{"channel":"bbo-tbt","instId":"BTC-USDT"}]}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }
}

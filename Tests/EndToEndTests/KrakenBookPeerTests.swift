import Foundation
import Testing

@testable import TestSupport

/// `--bid-ask` on Kraken: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Kraken v2 tickers triggered by the best bid and ask;
///.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct KrakenBookPeerTests {
  @Test("every best bid and ask prints exactly as sent; the subscribe asks for event_trigger bbo")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run("kraken", path: "/v2", symbols: "BTC/USD", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
        "2026-09-21T14:02:11.462Z\tBTC/USD\t80912.3\t80912.4\t0.52031211\t3.04471102",
        "2026-09-21T14:02:11.503Z\tBTC/USD\t80912.3\t80912.4\t0.50031211\t3.04471102",
        "2026-09-21T14:02:11.861Z\tBTC/USD\t80912.0\t80912.4\t1.2\t2.95",
      ], "\(result.stdout)")
    let request =
      #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"],"event_trigger":"bbo"},"req_id":1}"#
    #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    await peer.finish()
  }
}

import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Hyperliquid: the built ticker against `Tests/Support/book_peer.py`
/// playing Hyperliquid's `bbo` messages (the greeting, the answer, a side gone empty), and.
@Suite(
  "ticker --bid-ask against an independent Hyperliquid peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct HyperliquidBookPeerTests {
  @Test("the built ticker: each bbo from the first, none taken as history; an empty side prints nothing")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run("hyperliquid", path: "/ws", symbols: "BTC", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
        "2024-12-06T01:53:20.000Z\tBTC\t97250.0\t97251.0\t1.2\t0.4",
        "2024-12-06T01:53:20.913Z\tBTC\t97252.0\t97253.0\t0.01123\t3.5",
        "2024-12-06T01:53:21.488Z\tBTC\t97252.0\t97253.0\t0.5\t3.5",
      ], "\(result.stdout)")
    #expect(
      await peer.expect { $0 == #"GOT {"method":"subscribe","subscription":{"type":"bbo","coin":"BTC"}}"# }
        != nil, "\(peer.all)")
    await peer.finish()
  }
}

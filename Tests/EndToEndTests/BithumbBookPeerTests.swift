import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Bithumb: the built ticker against `Tests/Support/book_peer.py` playing
/// Bithumb's `orderbook` messages (binary frames, DEFAULT keys).
@Suite(
  "ticker --bid-ask against an independent Bithumb peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct BithumbBookPeerTests {
  @Test("the built ticker: each book's first unit, and the orderbook request")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run(
      "bithumb", path: "/websocket/v1", symbols: "KRW-BTC", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
        "2026-07-10T04:39:41.398Z\tKRW-BTC\t95539000\t95540000\t0.51002\t0.0123",
        "2026-07-10T04:39:41.574Z\tKRW-BTC\t95539000\t95541000\t0.51002\t0.4",
        "2026-07-10T04:39:42.001Z\tKRW-BTC\t95540000\t95541000\t0.005\t0.4",
      ], "\(result.stdout)")
    let request = #"{"type":"orderbook","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#
    #expect(
      await peer.expect { $0.hasPrefix(#"GOT [{"ticket":""#) && $0.hasSuffix(request) } != nil, "\(peer.all)")
    await peer.finish()
  }
}

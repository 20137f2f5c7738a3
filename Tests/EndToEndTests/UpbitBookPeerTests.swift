import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Upbit: the built ticker against `Tests/Support/book_peer.py` playing
/// Upbit's `orderbook` messages (binary frames, SIMPLE keys, exponent-form numbers), and against.
@Suite(
  "ticker --bid-ask against an independent Upbit peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct UpbitBookPeerTests {
  @Test("the built ticker: each book's first unit, exponents written out, the orderbook request")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run(
      "upbit", path: "/websocket/v1", symbols: "KRW-BTC", count: 3)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        BookPeerRun.header,
        "2024-12-06T01:53:20.000Z\tKRW-BTC\t143240000\t143250000\t0.1\t0.05",
        "2024-12-06T01:53:20.212Z\tKRW-BTC\t143240000\t143250000\t0.1\t0.00049",
        "2024-12-06T01:53:20.871Z\tKRW-BTC\t143245000\t143250000\t0.012\t0.00049",
      ], "\(result.stdout)")
    let request = #"{"type":"orderbook","codes":["KRW-BTC"]},{"format":"SIMPLE"}]"#
    #expect(
      await peer.expect { $0.hasPrefix(#"GOT [{"ticket":""#) && $0.hasSuffix(request) } != nil, "\(peer.all)")
    await peer.finish()
  }
}

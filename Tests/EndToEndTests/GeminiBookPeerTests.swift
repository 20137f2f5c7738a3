import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Gemini: the built ticker against the independent book peer
/// (`Tests/Support/book_peer.py`) playing Gemini's recorded `l2` session.
@Suite("ticker --bid-ask against Gemini's l2 book", .requires(.pythonWebsockets), .timeLimit(.minutes(2)))
struct GeminiBookPeerTests {
  @Test("the book peer: a row for the whole book and each move of its top, trades not printed")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run(
      "gemini", path: "/v2/marketdata", symbols: "btcusd", count: 6)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutLines
    #expect(lines.first == BookPeerRun.header, "\(result.stdout)")
    // Gemini's l2_updates carry no time: each row has the time it arrived.
    let rows = lines.dropFirst().map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
    #expect(rows.allSatisfy { $0.count == 2 && $0[0].hasSuffix("Z") && $0[0].count == 24 }, "\(rows)")
    #expect(
      rows.map(\.last) == [
        "BTCUSD\t97412.58\t97412.61\t0.0413\t0.31208",
        "BTCUSD\t97412.58\t97412.61\t0.0413\t0.31187",
        "BTCUSD\t97412.55\t97412.61\t0.07626\t0.31187",
        "BTCUSD\t97412.55\t97412.59\t0.07626\t0.0021",
        "BTCUSD\t97412.55\t97412.61\t0.07626\t0.31187",
        "BTCUSD\t97412.55\t97412.61\t0.02626\t0.31187",
      ], "\(result.stdout)\n\(result.stderr)")
    // The subscription is l2's, the one trades use.
    #expect(
      await peer.expect {
        $0 == #"GOT {"type":"subscribe","subscriptions":[{"name":"l2","symbols":["BTCUSD"]}]}"#
      } != nil, "\(peer.all)")
    await peer.finish()
  }
}

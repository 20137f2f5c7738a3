import Foundation
import TestSupport
import Testing
import Venues

/// `ticker --bid-ask` on Bitfinex: its `ticker` channels against an independent peer
/// (`Tests/Support/book_peer.py` playing `Tests/Fixtures/book/bitfinex.json`: channel ids from
/// the `subscribed` answers, JSON numbers as Bitfinex prints them, heartbeats).
@Suite(
  "ticker --bid-ask against an independent Bitfinex peer", .requires(.pythonWebsockets),
  .timeLimit(.minutes(2)),
  .ownThread)
struct BitfinexBookPeerTests {
  /// The rows of a tsv run, their time column aside, and whether every time is an instant.
  static func rows(_ lines: [String]) -> (rows: [String], timed: Bool) {
    let rows = lines.filter { !$0.hasPrefix("time\t") }.map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    // No time in Bitfinex's tickers: each row has its arrival's (`2026-…T…Z`).
    let timed = rows.allSatisfy { $0[0].utf8.count == 24 && $0[0].hasSuffix("Z") && $0[0].hasPrefix("20") }
    return (rows.map { $0.dropFirst().joined(separator: "\t") }, timed)
  }

  @Test("the built ticker: BID, ASK and their sizes as sent, one row per ticker, heartbeats silent")
  func builtTicker() async throws {
    let (result, peer) = try await BookPeerRun.run(
      "bitfinex", path: "/ws/2", symbols: "tBTCUSD,tETHUSD", count: 5)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.first == BookPeerRun.header, "\(result.stdout)")
    let (rows, timed) = Self.rows(result.stdoutLines)
    #expect(timed, "\(result.stdout)")
    #expect(
      rows == [
        "tBTCUSD\t97250\t97251\t4.53188652\t6.61437813",
        "tETHUSD\t3862.4\t3862.5\t112.30981\t98.1275",
        "tBTCUSD\t97249.5\t97250.00000000002\t4.1\t1.7023900800000002",
        "tETHUSD\t3862.4\t3862.6\t112.30981\t0.00012",
        "tBTCUSD\t97250\t97251\t5\t6.61437813",
      ], "\(result.stdout)\n\(result.stderr)")
    for symbol in ["tBTCUSD", "tETHUSD"] {
      let request = #"{"event":"subscribe","channel":"ticker","symbol":"\#(symbol)"}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    #expect(!peer.all.contains { $0.contains(#""trades""#) }, "\(peer.all)")
    await peer.finish()
  }
}

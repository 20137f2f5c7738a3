import Foundation
import TestSupport
import Testing

/// `ticker --bid-ask` on Upbit: the built ticker against `Tests/Support/book_peer.py` playing
/// Upbit's `orderbook` messages (binary frames, SIMPLE keys, exponent-form numbers), and against
/// the demo's emulated Upbit.
@Suite(
  "ticker --bid-ask against an independent Upbit peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct UpbitBookPeerTests {
  @Test("the built ticker: each book's first unit, exponents written out, the orderbook request")
  func builtTicker() async throws {
    let fixture = Fixture.directory.appendingPathComponent("book/upbit.json").path
    let (peer, port) = try await LinePeer.python("book_peer.py", [fixture])
    let result = try await TickerProcess.run(
      [
        "--provider", "upbit", "--url", "ws://127.0.0.1:\(port)/websocket/v1", "-s", "KRW-BTC", "--bid-ask",
        "--every-trade", "--format", "tsv", "--count", "3",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "time\tsymbol\tbid\task\tbid_size\task_size",
        "2024-12-06T01:53:20.000Z\tKRW-BTC\t143240000\t143250000\t0.1\t0.05",
        "2024-12-06T01:53:20.212Z\tKRW-BTC\t143240000\t143250000\t0.1\t0.00049",
        "2024-12-06T01:53:20.871Z\tKRW-BTC\t143245000\t143250000\t0.012\t0.00049",
      ], "\(result.stdout)")
    let request = #"{"type":"orderbook","codes":["KRW-BTC"]},{"format":"SIMPLE"}]"#
    #expect(
      await peer.expect { $0.hasPrefix(#"GOT [{"ticket":""#) && $0.hasSuffix(request) } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("the demo's Upbit serves a live book: five rows, each bid below its ask")
  func demo() async throws {
    let result = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--provider", "upbit", "--every-trade", "--format", "tsv", "--count", "5"],
      environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdoutLines.dropFirst().map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    #expect(result.stdoutLines.first == "time\tsymbol\tbid\task\tbid_size\task_size")
    #expect(rows.count == 5, "\(result.stdout)")
    for row in rows {
      #expect(row.count == 6 && row[1] == "KRW-BTC", "\(row)")
      guard row.count == 6, let bid = Double(row[2]), let ask = Double(row[3]) else { continue }
      #expect(bid < ask, "\(row)")
    }
  }
}

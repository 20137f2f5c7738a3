import Foundation
import Testing

@testable import TestSupport

/// The built binary against an independent Kraken v2 server: `Tests/Support/kraken_peer.py`, on
/// Python's `websockets`, written from Kraken's documentation and sharing no code with the
/// ticker or FeedServer. Its status, answers per pair, tickers, heartbeats and pong are the
/// venue's shapes.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)))
struct KrakenPeerTests {
  static let environment = TickerProcess.cleanEnvironment()

  @Test("prices exactly as sent; a refused pair reported while the other prints")
  func pricesAndRefusal() async throws {
    let (peer, port) = try await LinePeer.python("kraken_peer.py", ["updates"])
    let result = try await TickerProcess.run(
      [
        "--provider", "kraken", "--url", "ws://127.0.0.1:\(port)/v2", "-s", "BTC/USD,XBT/USD",
        "--every-trade",
        "--count", "3",
      ], environment: Self.environment)
    await peer.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "2026-09-21T14:02:11.462Z\tBTC/USD\t80912.4",
        "2026-09-21T14:02:12.462Z\tBTC/USD\t80915.0",
        "2026-09-21T14:02:13.462Z\tBTC/USD\t80909.8",
      ], "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "Kraken refused the change: Currency pair not supported XBT/USD; no longer subscribed to XBT/USD"),
      "\(result.stderr)")
    #expect(
      peer.all.contains(
        #"GOT {"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","XBT/USD"]},"req_id":1}"#
      ),
      "\(peer.all)")
  }

  @Test("heartbeats keep nobody waiting; the ping goes out by itself and its pong is silent")
  func keepalive() async throws {
    let (peer, port) = try await LinePeer.python("kraken_peer.py", ["keepalive"])
    let ticker = try RunningTicker(
      [
        "--provider", "kraken", "--url", "ws://127.0.0.1:\(port)/v2", "-s", "ETH/USD", "--every-trade",
        "--count", "2",
      ],
      environment: Self.environment)
    // Only heartbeats after the snapshot, until the ticker's own ping (due 25 s after
    // connecting) has been answered; then one more price, the second line.
    #expect(await peer.expect(within: 90) { $0 == #"GOT {"method":"ping"}"# } != nil, "\(peer.all)")
    #expect(await peer.expect { $0 == "PONG" } != nil)
    let (status, stderr) = await ticker.exit(within: 60)
    await peer.finish()
    #expect(status == 0, "\(stderr)")
    #expect(
      ticker.allLines() == [
        "2026-09-21T14:02:11.462Z\tETH/USD\t2612.17", "2026-09-21T14:02:40.462Z\tETH/USD\t2612.0",
      ])
    // One connection: the heartbeats and the pong were taken as signs of life, never as data.
    #expect(peer.all.filter { $0 == "CONNECTED" }.count == 1, "\(peer.all)")
    #expect(!stderr.contains("warning") && !stderr.contains("error"), "\(stderr)")
  }
}

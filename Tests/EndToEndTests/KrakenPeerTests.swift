import FeedRuntime
import Foundation
import Synchronization
import Testing
import TickerSupport
import Venues
import WebSocketClient

@testable import TestSupport
@testable import Transport
@testable import WebSocketWire

/// The built binary (and, for the keepalive, the runtime in this process with Kraken's timings
/// scaled) against an independent Kraken v2 server: `Tests/Support/kraken_peer.py`, on
/// Python's `websockets`, written from Kraken's documentation and sharing no code with the
/// ticker or FeedServer. Its status, answers per pair, tickers, heartbeats and pong are the
/// venue's shapes.
@Suite(.requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
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
    // The runtime with Kraken's provider, its 25 s ping scaled by 1/50 (0.5 s): only heartbeats
    // after the snapshot until the ping has been answered, then one more price. Neither the
    // heartbeats nor the pong is a price, and nothing is taken for a dead connection.
    let (peer, port) = try await LinePeer.python("kraken_peer.py", ["keepalive"])
    let feed = Feed(
      Feed.Settings(
        provider: KrakenProvider().scaled(by: 1.0 / 50), engine: NativeEngine(),
        url: try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/v2"),
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["ETH/USD"])
    ) { _ in }
    let quotes = Mutex<[String]>([])
    let subscription = feed.bus.subscribe()
    let reader = Task.preferringCurrentExecutor {
      while let batches = try? await subscription.queue.nextBatch() {
        for batch in batches { quotes.withLock { $0 += batch.map { "\($0.symbol) \($0.price)" } } }
      }
    }
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await peer.expect(within: 60) { $0 == #"GOT {"method":"ping"}"# } != nil, "\(peer.all)")
    #expect(await peer.expect { $0 == "PONG" } != nil)
    #expect(await eventually { quotes.withLock { $0.count } >= 2 })
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    await reader.value
    await peer.finish()
    #expect(quotes.withLock { $0 } == ["ETH/USD 2612.17", "ETH/USD 2612.0"])
    // One connection: the heartbeats and the pong were taken as signs of life, never as data.
    #expect(peer.all.filter { $0 == "CONNECTED" }.count == 1, "\(peer.all)")
  }
}

import FeedRuntime
import Foundation
import Synchronization
import TestSupport
import Testing
import TickerSupport
import Transport
import Venues
import WebSocketClient
import WebSocketWire

/// The ticker against an independent Hyperliquid: `Tests/Support/hyperliquid_peer.py`, a Python
/// `websockets` server written from Hyperliquid's documentation, sharing no code with FeedServer.
/// Its greeting, its answers and refusals quoting each subscription, the back-fill of recent
/// trades on subscribing (newest first there), its `{"method":"ping"}`/`{"channel":"pong"}` and
/// its close of a connection it has sent nothing to.
@Suite(
  "ticker against an independent Hyperliquid peer", .requires(.pythonWebsockets), .timeLimit(.minutes(2)),
  .ownThread)
struct HyperliquidPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/ws" }

  @Test(
    "the built ticker: each back-fill's newest trade then the live fills; the unlisted coin reported and taken back"
  )
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("hyperliquid_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "hyperliquid", "--url", Self.url(port), "-s", "BTC,nope,ETH", "--every-trade",
        "--count",
        "6",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    // The back-fills' older trades never print; each coin's lines in trade order.
    #expect(
      result.stdoutLines.filter { $0.contains("\tBTC\t") } == [
        "2026-10-06T16:20:04.961Z\tBTC\t97432.0", "2026-10-06T16:20:10.006Z\tBTC\t97431.0",
        "2026-10-06T16:20:10.572Z\tBTC\t97432.0", "2026-10-06T16:20:10.572Z\tBTC\t97433.0",
      ], "\(result.stdout)")
    #expect(
      result.stdoutLines.filter { $0.contains("\tETH\t") } == [
        "2026-10-06T16:20:05.120Z\tETH\t3012.5", "2026-10-06T16:20:11.311Z\tETH\t3012.6",
      ], "\(result.stdout)")
    #expect(result.stdoutLines.count == 6, "\(result.stdout)")
    #expect(
      result.stderr.contains(
        #"Hyperliquid refused the change: Invalid subscription: {"type":"trades","coin":"NOPE"}"#),
      "\(result.stderr)")
    #expect(result.stderr.contains("no longer subscribed to NOPE"), "\(result.stderr)")
    for coin in ["BTC", "NOPE", "ETH"] {
      let request = #"{"method":"subscribe","subscription":{"type":"trades","coin":"\#(coin)"}}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    await peer.finish()
  }

  final class Reports: Sendable {
    let disconnects = Mutex<[DisconnectReason]>([])
  }

  /// A feed of BTC from the peer through Hyperliquid's provider, its timings scaled by `factor`.
  static func feed(port: Int, factor: Double, reports: Reports) throws -> Feed {
    Feed(
      Feed.Settings(
        provider: HyperliquidProvider().scaled(by: factor), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["BTC"])
    ) { report in
      if case .disconnected(let reason, _, _) = report { reports.disconnects.withLock { $0.append(reason) } }
    }
  }

  @Test("the runtime's ping, answered by pong, keeps a connection the peer would close when it sends nothing")
  func keepalive() async throws {
    // The peer closes a connection it sent nothing to for 10 s; the feed pings every 0.5 s (30 s
    // scaled by 1/60: a timer late by 9.5 s would still be in time), 25 times: longer than the
    // peer's rule.
    let (peer, port) = try await LinePeer.python("hyperliquid_peer.py", ["--idle", "10"])
    let reports = Reports()
    let feed = try Self.feed(port: port, factor: 1.0 / 60, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<25 { #expect(await peer.expect { $0 == "PING" } != nil, "\(peer.all)") }
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    // Ctrl-C unsubscribes, then closes with 1000.
    #expect(
      await peer.expect {
        $0 == #"GOT {"method":"unsubscribe","subscription":{"type":"trades","coin":"BTC"}}"#
      }
        != nil, "\(peer.all)")
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1, "\(peer.all)")
    #expect(reports.disconnects.withLock { $0 }.isEmpty)
    await peer.finish()
  }

  @Test(
    "without the ping in time, the peer closes the quiet connection and the runtime reconnects and subscribes again"
  )
  func closedWhenQuiet() async throws {
    let (peer, port) = try await LinePeer.python("hyperliquid_peer.py", ["--idle", "0.5"])
    let reports = Reports()
    let feed = try Self.feed(port: port, factor: 1, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await peer.expect { $0 == "CLOSED 1001 idle" } != nil, "\(peer.all)")
    #expect(await eventuallyValue { peer.all.filter { $0 == "OPEN" }.count >= 2 ? true : nil } == true)
    #expect(
      await eventuallyValue {
        peer.all.filter { $0 == #"GOT {"method":"subscribe","subscription":{"type":"trades","coin":"BTC"}}"# }
          .count >= 2 ? true : nil
      } == true, "\(peer.all)")
    feed.stop(.signal(2))
    _ = await run.value
    #expect(
      reports.disconnects.withLock { $0 }.first
        == .peerClosed(CloseStatus(code: CloseCode(1001), reason: "idle")))
    await peer.finish()
  }
}

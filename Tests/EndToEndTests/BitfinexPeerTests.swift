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

/// The ticker against an independent Bitfinex: `Tests/Support/bitfinex_peer.py`, a Python
/// `websockets` server written from Bitfinex's documentation, sharing no code with FeedServer. Its
/// info event, its `subscribed` answers with channel ids of its own, its snapshots and trades (each
/// as `te`, then `tu`), its refusal of an unlisted pair (10300 naming it), its heartbeats on quiet
/// channels and its drop of a connection without a channel.
@Suite(
  "ticker against an independent Bitfinex peer", .requires(.pythonWebsockets), .timeLimit(.minutes(2)),
  .ownThread)
struct BitfinexPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/ws/2" }

  @Test(
    "the built ticker: each pair's starting price and its trades once each, the unlisted pair refused by name"
  )
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("bitfinex_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "bitfinex", "--url", Self.url(port), "-s", "tBTCUSD,zzzusd,ETHUSD", "--every-trade",
        "--count", "6",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    // The snapshot's newest trade (never the older ones), then each trade once though sent twice.
    #expect(
      Set(result.stdoutLines) == [
        "2026-10-14T08:21:40.300Z\ttBTCUSD\t97500", "2026-10-14T08:21:41.000Z\ttBTCUSD\t97501",
        "2026-10-14T08:21:41.500Z\ttBTCUSD\t97502", "2026-10-14T08:21:40.200Z\ttETHUSD\t3512.4",
        "2026-10-14T08:21:41.200Z\ttETHUSD\t3512.5", "2026-10-14T08:21:41.700Z\ttETHUSD\t3512.6",
      ], "\(result.stdout)")
    #expect(result.stdoutLines.count == 6)
    #expect(result.stderr.contains("Bitfinex refused the change 10300: symbol: invalid"), "\(result.stderr)")
    #expect(result.stderr.contains("no longer subscribed to tZZZUSD"), "\(result.stderr)")
    for symbol in ["tBTCUSD", "tZZZUSD", "tETHUSD"] {
      let request = #"{"event":"subscribe","channel":"trades","symbol":"\#(symbol)"}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    await peer.finish()
  }

  final class Reports: Sendable {
    let disconnects = Mutex<[DisconnectReason]>([])
    let quotes = Mutex(0)
  }

  /// A feed of tBTCUSD from the peer through Bitfinex's provider (its client duties scaled, of
  /// which it has none), the session giving up on a connection silent for `silence`.
  static func feed(port: Int, silence: Duration, reports: Reports) throws -> Feed {
    Feed(
      Feed.Settings(
        provider: BitfinexProvider().scaled(by: 0.05), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(
          backoff: Backoff(initialDelay: .milliseconds(50)), silenceTimeout: silence),
        mode: .everyTrade, symbols: ["tBTCUSD"])
    ) { report in
      if case .disconnected(let reason, _, _) = report { reports.disconnects.withLock { $0.append(reason) } }
    }
  }

  @Test("the venue's heartbeats keep a quiet channel's connection: no client message is owed, none is sent")
  func heartbeatsKeepTheConnection() async throws {
    // Heartbeats every 0.2 s; the session gives up after 4 s of silence, the peer drops a
    // connection without a channel whose client said nothing for 5 s (room for a loaded machine
    // to subscribe in): 35 heartbeats go by, 7 s, longer than both, without a client message.
    let (peer, port) = try await LinePeer.python("bitfinex_peer.py", ["--heartbeat", "0.2", "--idle", "5"])
    let reports = Reports()
    let feed = try Self.feed(port: port, silence: .seconds(4), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<35 { #expect(await peer.expect { $0.hasPrefix("HB ") } != nil, "\(peer.all)") }
    // The subscription was the only message the client sent while it ran.
    #expect(
      peer.all.filter { $0.hasPrefix("GOT ") } == [
        #"GOT {"event":"subscribe","channel":"trades","symbol":"tBTCUSD"}"#
      ])
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1, "\(peer.all)")
    #expect(!peer.all.contains("DROPPED"))
    #expect(reports.disconnects.withLock { $0 }.isEmpty)
    await peer.finish()
  }

  @Test(
    "without heartbeats, a quiet connection is taken for dead: the runtime reconnects and subscribes again")
  func silentWithoutHeartbeats() async throws {
    let (peer, port) = try await LinePeer.python("bitfinex_peer.py", ["--heartbeat", "0"])
    let reports = Reports()
    let feed = try Self.feed(port: port, silence: .milliseconds(500), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await eventuallyValue { peer.all.filter { $0 == "OPEN" }.count >= 2 ? true : nil } == true)
    #expect(
      await eventuallyValue {
        peer.all.filter { $0.hasPrefix("GOT ") }.count >= 2 ? true : nil
      } == true, "\(peer.all)")
    feed.stop(.signal(2))
    _ = await run.value
    #expect(reports.disconnects.withLock { $0 }.first == .silence(.milliseconds(500)))
    await peer.finish()
  }
}

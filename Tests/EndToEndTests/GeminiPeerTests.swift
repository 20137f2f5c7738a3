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

/// The ticker against an independent Gemini: `Tests/Support/gemini_peer.py`, a Python
/// `websockets` server written from Gemini's documentation, sharing no code with FeedServer. Its
/// first books with their last trades, its trades, its `NoValidTradingPairs` refusal that names
/// no symbol, and its heartbeats.
@Suite(
  "ticker against an independent Gemini peer", .requires(.pythonWebsockets), .timeLimit(.minutes(2)),
  .ownThread)
struct GeminiPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/v2/marketdata" }

  @Test(
    "the built ticker: each first book's newest trade once, then the trades; the unlisted symbol refused by name"
  )
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("gemini_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "gemini", "--url", Self.url(port), "-s", "BTCUSD,ethusd,nopeusd", "--every-trade",
        "--count",
        "6",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    // The starting prices (the newest trade of each first book) come first, once each.
    #expect(
      Set(result.stdoutLines.prefix(2)) == [
        "2026-10-08T14:21:04.038Z\tBTCUSD\t97412.58", "2026-10-08T14:21:03.502Z\tETHUSD\t3612.10",
      ], "\(result.stdout)")
    #expect(
      Set(result.stdoutLines.dropFirst(2)) == [
        "2026-10-08T14:21:05.458Z\tBTCUSD\t97412.61", "2026-10-08T14:21:06.621Z\tBTCUSD\t97412.58",
        "2026-10-08T14:21:05.733Z\tETHUSD\t3612.35", "2026-10-08T14:21:06.804Z\tETHUSD\t3612.07",
      ], "\(result.stdout)")
    #expect(result.stdoutLines.count == 6)
    #expect(
      result.stderr.contains(
        "Gemini refused the change NoValidTradingPairs: no valid trading pairs; no longer subscribed to NOPEUSD"
      ),
      "\(result.stderr)")
    for symbol in ["BTCUSD", "ETHUSD", "NOPEUSD"] {
      let request = #"{"type":"subscribe","subscriptions":[{"name":"l2","symbols":["\#(symbol)"]}]}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    await peer.finish()
  }

  final class Reports: Sendable {
    let disconnects = Mutex<[DisconnectReason]>([])
    let others = Mutex<[FeedReport]>([])
  }

  /// A feed of BTCUSD from the peer through Gemini's provider (which has no timing of its own
  /// to scale: the client owes Gemini nothing), its connection dead after `silence` without a
  /// message.
  static func feed(port: Int, silence: Duration, reports: Reports) throws -> Feed {
    Feed(
      Feed.Settings(
        provider: GeminiProvider(), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(
          backoff: Backoff(initialDelay: .milliseconds(50)), pingInterval: nil, silenceTimeout: silence),
        mode: .everyTrade, symbols: ["BTCUSD"])
    ) { report in
      switch report {
      case .disconnected(let reason, _, _): reports.disconnects.withLock { $0.append(reason) }
      case .connected, .subscriptionChanged: break
      default: reports.others.withLock { $0.append(report) }
      }
    }
  }

  @Test("the peer's heartbeats, shortened, keep a quiet connection the runtime would give up for silence")
  func keptByHeartbeats() async throws {
    // The runtime gives a connection up after 1 s without a message; the peer's heartbeat comes
    // every 0.2 s, 25 times: five times longer than the silence allowed.
    let (peer, port) = try await LinePeer.python("gemini_peer.py", ["--heartbeat", "0.2"])
    let reports = Reports()
    let feed = try Self.feed(port: port, silence: .seconds(1), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<25 { #expect(await peer.expect { $0 == "BEAT" } != nil, "\(peer.all)") }
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1, "\(peer.all)")
    #expect(reports.disconnects.withLock { $0 }.isEmpty)
    // Heartbeats and the first book are nothing to report.
    #expect(reports.others.withLock { $0 }.isEmpty, "\(reports.others.withLock { $0 })")
    await peer.finish()
  }

  @Test("without heartbeats, a quiet connection is given up for silence, then opened and subscribed again")
  func silentWithoutHeartbeats() async throws {
    let (peer, port) = try await LinePeer.python("gemini_peer.py", ["--heartbeat", "0"])
    let reports = Reports()
    let feed = try Self.feed(port: port, silence: .seconds(1), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await eventuallyValue { peer.all.filter { $0 == "OPEN" }.count >= 2 ? true : nil } == true)
    #expect(
      await eventuallyValue {
        peer.all.filter { $0.hasPrefix("GOT {\"type\":\"subscribe\"") }.count >= 2 ? true : nil
      }
        == true, "\(peer.all)")
    feed.stop(.signal(2))
    _ = await run.value
    #expect(reports.disconnects.withLock { $0 }.first == .silence(.seconds(1)))
    await peer.finish()
  }
}

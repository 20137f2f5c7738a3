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

/// The ticker against an independent Bybit: `Tests/Support/bybit_peer.py`, a Python `websockets`
/// server written from Bybit's documentation and captures, sharing no code with FeedServer. Its
/// answers by `req_id`, its `Invalid symbol` refusal, its batched `publicTrade` messages, its
/// ping and pong, and its cut of a connection with no ping-pong and no data.
@Suite(
  "ticker against an independent Bybit peer", .requires(.pythonWebsockets), .timeLimit(.minutes(2)),
  .ownThread)
struct BybitPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/v5/public/spot" }

  @Test(
    "the built ticker: every trade of the listed symbols prints, the unlisted one is reported and taken back")
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("bybit_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "bybit", "--url", Self.url(port), "-s", "BTCUSDT,nopeusdt,ETHUSDT", "--every-trade",
        "--count", "4",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      Set(result.stdoutLines) == [
        "2026-09-02T07:43:29.482Z\tBTCUSDT\t77606.8", "2026-09-02T07:43:29.482Z\tBTCUSDT\t77607",
        "2026-09-02T07:43:30.117Z\tETHUSDT\t3012.45", "2026-09-02T07:43:30.301Z\tETHUSDT\t3012.5",
      ], "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "Bybit refused the change: Invalid symbol :[publicTrade.NOPEUSDT]; no longer subscribed to NOPEUSDT"),
      "\(result.stderr)")
    for (id, symbol) in [(1, "BTCUSDT"), (2, "NOPEUSDT"), (3, "ETHUSDT")] {
      let request = #"{"req_id":"\#(id)","op":"subscribe","args":["publicTrade.\#(symbol)"]}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    await peer.finish()
  }

  final class Reports: Sendable {
    let disconnects = Mutex<[DisconnectReason]>([])
  }

  /// A feed of BTCUSDT from the peer through Bybit's provider, its timings scaled by `factor`.
  static func feed(port: Int, scale factor: Double, reports: Reports) throws -> Feed {
    Feed(
      Feed.Settings(
        provider: BybitProvider().scaled(by: factor), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["BTCUSDT"])
    ) { report in
      if case .disconnected(let reason, _, _) = report { reports.disconnects.withLock { $0.append(reason) } }
    }
  }

  @Test("the runtime's ping, answered by pong, keeps a connection the peer would cut when idle")
  func keepalive() async throws {
    // The peer cuts a connection with no ping-pong and no data for 10 s; the feed's ping every 20 s
    // scaled to 0.5 s (a timer late by 9.5 s would still be in time), 25 times: longer than the
    // peer's rule.
    let (peer, port) = try await LinePeer.python("bybit_peer.py", ["--idle", "10"])
    let reports = Reports()
    let feed = try Self.feed(port: port, scale: 0.025, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<25 { #expect(await peer.expect { $0 == "PING" } != nil, "\(peer.all)") }
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1 && !peer.all.contains("CUT"), "\(peer.all)")
    #expect(reports.disconnects.withLock { $0 }.isEmpty)
    await peer.finish()
  }

  @Test(
    "without the ping in time, the peer cuts the connection and the runtime reconnects and subscribes again")
  func cutWhenIdle() async throws {
    let (peer, port) = try await LinePeer.python("bybit_peer.py", ["--idle", "1.5"])
    let reports = Reports()
    let feed = try Self.feed(port: port, scale: 1, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await peer.expect { $0 == "CUT" } != nil, "\(peer.all)")
    // Connected again and subscribed again (the request numbered on from the first).
    let subscribed = #","op":"subscribe","args":["publicTrade.BTCUSDT"]}"#
    #expect(
      await eventually {
        peer.all.filter { $0.hasPrefix(#"GOT {"req_id":""#) && $0.hasSuffix(subscribed) }.count >= 2
      }, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count >= 2, "\(peer.all)")
    feed.stop(.signal(2))
    _ = await run.value
    // Dropped without a close frame: no close status from the peer.
    let first = reports.disconnects.withLock { $0 }.first
    #expect(first != nil, "\(peer.all)")
    if case .peerClosed(let status) = first { Issue.record("closed with \(status), not cut") }
    await peer.finish()
  }
}

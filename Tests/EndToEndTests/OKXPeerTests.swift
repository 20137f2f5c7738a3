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

/// The ticker against an independent OKX: `Tests/Support/okx_peer.py`, a Python `websockets`
/// server written from OKX's documentation, sharing no code with FeedServer. Its answers per
/// instrument, its 60018 refusal, its `tickers` pushes, its text `ping`/`pong` and its close of a
/// quiet connection (4004).
@Suite(
  "ticker against an independent OKX peer", .requires(.pythonWebsockets), .timeLimit(.minutes(2)), .ownThread)
struct OKXPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/ws/v5/public" }

  @Test("the built ticker: the listed instruments print, the unlisted one is reported and taken back")
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("okx_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "okx", "--url", Self.url(port), "-s", "BTC-USDT,nope-usdt,ETH-USDT", "--every-trade",
        "--count", "4",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      Set(result.stdoutLines) == [
        "2026-10-06T09:14:31.509Z\tBTC-USDT\t79412.6", "2026-10-06T09:14:31.714Z\tBTC-USDT\t79412.5",
        "2026-10-06T09:14:32.004Z\tETH-USDT\t3012.45", "2026-10-06T09:14:32.311Z\tETH-USDT\t3012.5",
      ], "\(result.stdout)")
    #expect(result.stderr.contains("OKX refused the change 60018"), "\(result.stderr)")
    #expect(result.stderr.contains("no longer subscribed to NOPE-USDT"), "\(result.stderr)")
    for (id, instrument) in [(1, "BTC-USDT"), (2, "NOPE-USDT"), (3, "ETH-USDT")] {
      let request =
        #"{"id":"\#(id)","op":"subscribe","args":[{"channel":"tickers","instId":"\#(instrument)"}]}"#
      #expect(await peer.expect { $0 == "GOT " + request } != nil, "\(peer.all)")
    }
    await peer.finish()
  }

  final class Reports: Sendable {
    let disconnects = Mutex<[DisconnectReason]>([])
    let quotes = Mutex(0)
  }

  /// A feed of BTC-USDT from the peer through OKX's provider with this keepalive interval.
  static func feed(port: Int, keepalive: Duration, reports: Reports) throws -> Feed {
    Feed(
      Feed.Settings(
        provider: OKXProvider(keepaliveInterval: keepalive), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["BTC-USDT"])
    ) { report in
      if case .disconnected(let reason, _, _) = report { reports.disconnects.withLock { $0.append(reason) } }
    }
  }

  @Test("the runtime's text ping, answered by pong, keeps a connection the peer would close when quiet")
  func keepalive() async throws {
    // The peer closes a connection it pushed nothing to for 10 s; the feed pings every 0.5 s (a
    // timer late by 9.5 s would still be in time), 25 times: longer than the peer's rule.
    let (peer, port) = try await LinePeer.python("okx_peer.py", ["--quiet", "10"])
    let reports = Reports()
    let feed = try Self.feed(port: port, keepalive: .milliseconds(500), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<25 { #expect(await peer.expect { $0 == "PING" } != nil, "\(peer.all)") }
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1, "\(peer.all)")
    #expect(reports.disconnects.withLock { $0 }.isEmpty)
    await peer.finish()
  }

  @Test("without the ping in time, the peer closes with 4004 and the runtime reconnects and subscribes again")
  func closedWhenQuiet() async throws {
    let (peer, port) = try await LinePeer.python("okx_peer.py", ["--quiet", "0.5"])
    let reports = Reports()
    let feed = try Self.feed(port: port, keepalive: .seconds(3600), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await peer.expect { $0 == "CLOSED 4004 No data received in 30s" } != nil, "\(peer.all)")
    #expect(await eventuallyValue { peer.all.filter { $0 == "OPEN" }.count >= 2 ? true : nil } == true)
    feed.stop(.signal(2))
    _ = await run.value
    #expect(
      reports.disconnects.withLock { $0 }.first
        == .peerClosed(CloseStatus(code: CloseCode(4004), reason: "No data received in 30s")))
    await peer.finish()
  }
}

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

/// The ticker against an independent Bithumb: `Tests/Support/bithumb_peer.py`, a Python
/// `websockets` server written from Bithumb's documentation, sharing no code with FeedServer. Its
/// whole-list requests answered by a SNAPSHOT then REALTIME trades in binary frames, its silence
/// for a code it does not list, its `PING`/`{"status":"UP"}` and its close of an idle connection.
///
/// One test at a time: each starts a Python interpreter and a ticker, and all at once they took
/// the 2-core machine long enough to starve the conformance suite's scaled keepalives.
@Suite(
  "ticker against an independent Bithumb peer", .requires(.pythonWebsockets), .serialized,
  .timeLimit(.minutes(2)), .ownThread)
struct BithumbPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/websocket/v1" }

  static let btc = [
    "2026-07-10T04:39:41.138Z\tKRW-BTC\t95539000", "2026-07-10T04:39:41.574Z\tKRW-BTC\t95540000",
  ]
  static let eth = [
    "2026-07-10T04:40:08.586Z\tKRW-ETH\t4145000", "2026-07-10T04:40:12.225Z\tKRW-ETH\t4146000",
  ]

  @Test("the built ticker: each listed code's snapshot and trade, in UTC; the unknown code starved")
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("bithumb_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "bithumb", "--url", Self.url(port), "-s", "KRW-BTC,krw-nope,KRW-ETH", "--every-trade",
        "--count", "4",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Set(result.stdoutLines) == Set(Self.btc + Self.eth), "\(result.stdout)")
    // One request for the whole list, codes in upper case, the DEFAULT format.
    let request = #"{"type":"trade","codes":["KRW-BTC","KRW-NOPE","KRW-ETH"]},{"format":"DEFAULT"}]"#
    #expect(
      await peer.expect { $0.hasPrefix(#"GOT [{"ticket":""#) && $0.hasSuffix(request) } != nil, "\(peer.all)")
    await peer.finish()
  }

  @Test("a code the peer does not list is warned about once, by name, and the others print")
  func unknownCode() async throws {
    let (peer, port) = try await LinePeer.python("bithumb_peer.py", [])
    let ticker = try RunningTicker(
      ["--provider", "bithumb", "--url", Self.url(port), "-s", "KRW-BTC,KRW-NOPE", "--every-trade"])
    #expect(await ticker.lines(2) == Self.btc)
    #expect(await eventually { ticker.stderrSoFar.contains("no quote for KRW-NOPE within 5 s") })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(stderr.components(separatedBy: "no quote for").count == 2, "\(stderr)")
    #expect(!stderr.contains("no quote for KRW-BTC"))
    await peer.finish()
  }

  @Test("a code added while running: its snapshot starts it, and the flowing code's is not printed again")
  func addedWhileRunning() async throws {
    let (peer, port) = try await LinePeer.python("bithumb_peer.py", [])
    let ticker = try RunningTicker(
      [
        "--provider", "bithumb", "--url", Self.url(port), "-s", "KRW-BTC", "--every-trade", "--control",
        "stdin",
      ],
      stdin: true)
    #expect(await ticker.lines(2) == Self.btc)
    ticker.send("+KRW-ETH\n")
    #expect(await ticker.lines(4) == Self.btc + Self.eth)
    let snapshot = #"{"type":"trade","codes":["KRW-ETH"],"isOnlySnapshot":true},{"format":"DEFAULT"}]"#
    let realtime =
      #"{"type":"trade","codes":["KRW-BTC","KRW-ETH"],"isOnlyRealtime":true},{"format":"DEFAULT"}]"#
    #expect(await peer.expect { $0.hasSuffix(snapshot) } != nil, "\(peer.all)")
    #expect(await peer.expect { $0.hasSuffix(realtime) } != nil, "\(peer.all)")
    // Nothing to wait for: the peer answers the two requests in order, and the last thing it
    // sends for them is KRW-ETH's real-time trade, the fourth line, already printed; a KRW-BTC
    // trade sent again would have come before it.
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(await offPool { ticker.allLines() } == Self.btc + Self.eth)
    await peer.finish()
  }

  final class Reports: Sendable {
    let disconnects = Mutex<[DisconnectReason]>([])
  }

  /// A feed of KRW-BTC from the peer through Bithumb's provider, its timings scaled by `scale`.
  static func feed(port: Int, scale: Double, reports: Reports) throws -> Feed {
    Feed(
      Feed.Settings(
        provider: BithumbProvider().scaled(by: scale), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["KRW-BTC"])
    ) { report in
      if case .disconnected(let reason, _, _) = report { reports.disconnects.withLock { $0.append(reason) } }
    }
  }

  @Test("the runtime's text PING, answered by UP, keeps a connection the peer would close when idle")
  func keepalive() async throws {
    // The peer closes a connection idle for 8 s; the feed pings every 0.4 s (20 s scaled by 0.02:
    // a timer late by 7.6 s would still be in time), 25 times: longer than the peer's rule.
    let (peer, port) = try await LinePeer.python("bithumb_peer.py", ["--idle", "8"])
    let reports = Reports()
    let feed = try Self.feed(port: port, scale: 0.02, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<25 { #expect(await peer.expect { $0 == "PING" } != nil, "\(peer.all)") }
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1, "\(peer.all)")
    #expect(reports.disconnects.withLock { $0 }.isEmpty)
    await peer.finish()
  }

  @Test("without the PING in time, the peer closes the idle connection and the runtime reconnects")
  func closedWhenIdle() async throws {
    let (peer, port) = try await LinePeer.python("bithumb_peer.py", ["--idle", "0.5"])
    let reports = Reports()
    let feed = try Self.feed(port: port, scale: 1, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await peer.expect { $0 == "CLOSED 1001 Idle Timeout" } != nil, "\(peer.all)")
    #expect(await eventuallyValue { peer.all.filter { $0 == "OPEN" }.count >= 2 ? true : nil } == true)
    // Subscribed again on the new connection.
    #expect(
      await eventuallyValue { peer.all.filter { $0.hasPrefix("GOT [") }.count >= 2 ? true : nil } == true)
    feed.stop(.signal(2))
    _ = await run.value
    #expect(
      reports.disconnects.withLock { $0 }.first
        == .peerClosed(CloseStatus(code: .goingAway, reason: "Idle Timeout")))
    await peer.finish()
  }
}

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

/// The ticker against an independent Bitstamp: `Tests/Support/bitstamp_peer.py`, a Python
/// `websockets` server written from Bitstamp's documentation, sharing no code with FeedServer. Its
/// answers naming each channel, an unknown market acknowledged and silent, its `trade` messages
/// with floats beside the exact strings, its `bts:error` naming nothing, its maintenance notice,
/// and its WebSocket pings.
@Suite(
  "ticker against an independent Bitstamp peer", .requires(.pythonWebsockets), .timeLimit(.minutes(2)),
  .ownThread)
struct BitstampPeerTests {
  static func url(_ port: Int) -> String { "ws://127.0.0.1:\(port)/" }

  static func subscribe(_ market: String) -> String {
    #"{"event":"bts:subscribe","data":{"channel":"live_trades_\#(market)"}}"#
  }

  @Test(
    "the built ticker: the listed markets print exactly as sent, the unknown one is acknowledged and silent")
  func builtTicker() async throws {
    let (peer, port) = try await LinePeer.python("bitstamp_peer.py", [])
    let result = try await TickerProcess.run(
      [
        "--provider", "bitstamp", "--url", Self.url(port), "-s", "BTCUSD,nopeusd,ethusd", "--every-trade",
        "--count", "4",
      ], environment: TickerProcess.cleanEnvironment())
    #expect(result.status == 0, "\(result.stderr)")
    // `price_str` as sent (`3012.50`), never the float beside it (`3012.4500000000003`).
    #expect(
      Set(result.stdoutLines) == [
        "2026-10-08T10:23:37.676Z\tbtcusd\t79412", "2026-10-08T10:23:38.880Z\tbtcusd\t79411",
        "2026-10-08T10:23:39.004Z\tethusd\t3012.45", "2026-10-08T10:23:39.311Z\tethusd\t3012.50",
      ], "\(result.stdout)")
    #expect(!result.stderr.contains("error"), "\(result.stderr)")
    for market in ["btcusd", "nopeusd", "ethusd"] {
      #expect(await peer.expect { $0 == "GOT " + Self.subscribe(market) } != nil, "\(peer.all)")
    }
    await peer.finish()
  }

  final class Reports: Sendable {
    let all = Mutex<[FeedReport]>([])
    let quotes = Mutex<[Quote]>([])

    var disconnects: [DisconnectReason] {
      all.withLock { reports in
        reports.compactMap { if case .disconnected(let reason, _, _) = $0 { reason } else { nil } }
      }
    }
  }

  /// A feed of `symbols` from the peer through Bitstamp's provider (its timings scaled by
  /// `scale`: it has none, which is the point), every trade, collecting reports and quotes.
  static func feed(port: Int, symbols: [String], scale: Double = 1, reports: Reports) throws -> (
    Feed, Task<Void, Never>
  ) {
    let feed = Feed(
      Feed.Settings(
        provider: BitstampProvider().scaled(by: scale), engine: NativeEngine(),
        url: try WebSocketURL(parsing: url(port)),
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: symbols)
    ) { report in reports.all.withLock { $0.append(report) } }
    let subscription = feed.bus.subscribe()
    let reader = Task.preferringCurrentExecutor {
      while let batches = try? await subscription.queue.nextBatch() {
        for quotes in batches { reports.quotes.withLock { $0 += quotes } }
      }
    }
    return (feed, reader)
  }

  @Test("a refusal, which names no channel, is tied to its request by order: that market alone is taken back")
  func refusedChange() async throws {
    let (peer, port) = try await LinePeer.python("bitstamp_peer.py", ["--refuse", "ethusd"])
    let reports = Reports()
    let (feed, reader) = try Self.feed(port: port, symbols: ["btcusd"], reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await eventually { reports.quotes.withLock { $0.count } >= 2 })
    feed.subscribe(["ethusd"])
    #expect(await peer.expect { $0 == "GOT " + Self.subscribe("ethusd") } != nil, "\(peer.all)")
    let refused = await eventuallyValue {
      reports.all.withLock { all in
        all.lazy.compactMap { report -> [String]? in
          if case .changeRefused(let error, let symbols) = report,
            error == VenueError(message: "Invalid channel provided.", fatal: false)
          {
            symbols
          } else {
            nil
          }
        }.first
      }
    }
    #expect(refused == ["ethusd"], "\(reports.all.withLock { $0 })")
    // The next request's answer is its own: the market it adds stays.
    feed.subscribe(["xlmeur"])
    #expect(await peer.expect { $0 == "GOT " + Self.subscribe("xlmeur") } != nil, "\(peer.all)")
    // Its answer has been read once the change is reported: a refusal taken for it would be there.
    #expect(
      await eventually {
        reports.all.withLock {
          $0.contains(.subscriptionChanged(added: ["xlmeur"], removed: [], now: ["btcusd", "xlmeur"]))
        }
      })
    let changes = reports.all.withLock { $0 }
    #expect(changes.filter { if case .changeRefused = $0 { true } else { false } }.count == 1, "\(changes)")
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    reader.cancel()
    #expect(reports.disconnects.isEmpty)
    #expect(reports.quotes.withLock { $0 }.allSatisfy { $0.symbol == "btcusd" })
    await peer.finish()
  }

  @Test("the engine answers the peer's pings: the connection is kept with its deadline shortened to 1 s")
  func keepalive() async throws {
    // The peer pings every second and closes when a pong is later than the next ping (at 0.3 s,
    // a whole swift test once starved the peer's own process past it); Bitstamp asks nothing else
    // of the client, so the provider (scaled down, as tests do) adds nothing.
    let (peer, port) = try await LinePeer.python("bitstamp_peer.py", ["--ping", "1"])
    let reports = Reports()
    let (feed, reader) = try Self.feed(port: port, symbols: ["btcusd"], scale: 0.01, reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    for _ in 0..<8 { #expect(await peer.expect { $0 == "PONG" } != nil, "\(peer.all)") }
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    reader.cancel()
    #expect(await peer.expect { $0.hasPrefix("CLOSED ") }?.hasPrefix("CLOSED 1000") == true, "\(peer.all)")
    #expect(peer.all.filter { $0 == "OPEN" }.count == 1, "\(peer.all)")
    #expect(reports.disconnects.isEmpty)
    await peer.finish()
  }

  @Test("bts:request_reconnect: the runtime reconnects at once and subscribes again")
  func requestReconnect() async throws {
    let (peer, port) = try await LinePeer.python("bitstamp_peer.py", ["--request-reconnect"])
    let reports = Reports()
    let (feed, reader) = try Self.feed(port: port, symbols: ["btcusd"], reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await peer.expect { $0 == "GOT " + Self.subscribe("btcusd") } != nil, "\(peer.all)")
    #expect(await peer.expect { $0 == "GOT " + Self.subscribe("btcusd") } != nil, "\(peer.all)")
    #expect(await eventually { reports.quotes.withLock { $0.count } >= 4 })
    #expect(reports.all.withLock { $0 }.contains(.closingSoon("bts:request_reconnect")))
    feed.stop(.signal(2))
    _ = await run.value
    reader.cancel()
    #expect(peer.all.filter { $0 == "OPEN" }.count == 2, "\(peer.all)")
    #expect(reports.quotes.withLock { $0 }.prefix(2).map(\.price.text) == ["79412", "79411"])
    await peer.finish()
  }
}

import Emulators
import FeedRuntime
import Recording
import Synchronization
import Testing
import Venues
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

/// A feed per venue, opened at start or (serve's upstreams) when a symbol of its venue is first
/// asked for, its quotes stamped with the venue; the run ends with the last venue's end.
@Suite("FeedGroup against FeedServer's emulations", .ownThread)
struct FeedGroupTests {
  static let providers: [any Provider] = [BinanceProvider(), CoinbaseProvider()]

  /// A venue's emulator playing its recorded session once subscribed, then `ending`; with no
  /// deadline for subscribing (a venue opened at start waits for its symbols however slow the
  /// machine is).
  static func server(
    _ venue: VenueEmulation, ending: ConnectionPlan.Ending = .close(CloseStatus(code: .normalClosure))
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: SessionScript(ndjson: Fixture.text("\(venue.name)-session.ndjson")),
      options: .init(timeScale: 0, emulation: .venue(venue.patient()), ending: ending, awaitSubscriptions: 1))
    server.start()
    return server
  }

  final class Seen: Sendable {
    let opened = Mutex<[Int]>([])
    let ended = Mutex<[Int]>([])
    let unavailable = Mutex<[Int]>([])
  }

  static func feeds(
    _ servers: [FeedServer?], startWith: [Int: [String]], opening: FeedGroup.Opening = .whenAsked,
    _ seen: Seen
  ) -> FeedGroup {
    FeedGroup(
      venues: providers, startWith: startWith, opening: opening,
      opener: { index in
        seen.opened.withLock { $0.append(index) }
        guard let server = servers[index] else { return nil }
        let provider = providers[index]
        return { symbols, bus, venue in
          Feed(
            Feed.Settings(
              provider: provider, engine: NativeEngine(),
              url: provider.endpoint(base: server.url, token: nil),
              session: SessionConfiguration(maxRetries: 0), mode: .everyTrade, symbols: symbols),
            bus: bus, venue: venue
          ) { _ in }
        }
      },
      ended: { index, _ in seen.ended.withLock { $0.append(index) } },
      unavailable: { index in seen.unavailable.withLock { $0.append(index) } })
  }

  @Test("a venue opens when first asked for; each venue's quotes carry its index; one ending is told")
  func opensOnDemand() async throws {
    // Binance stays open: the run goes on after Coinbase's end, until stopped.
    let servers = [try Self.server(.binance, ending: .hold), try Self.server(.coinbase)]
    defer { servers.forEach { $0.stop() } }
    let seen = Seen()
    let feeds = Self.feeds(servers, startWith: [0: ["BTCUSDT"]], seen)
    let subscription = feeds.bus.subscribe()
    let received = Mutex<[Quote]>([])
    let reader = Task.preferringCurrentExecutor {
      while let batches = try await subscription.queue.nextBatch() {
        for batch in batches { received.withLock { $0 += batch } }
      }
    }
    let run = Task.preferringCurrentExecutor { await feeds.run() }
    // Nothing asked for Coinbase yet: only Binance is opened.
    #expect(await eventually { seen.opened.withLock { $0 } == [0] })
    feeds.subscribe(["coinbase/btc-usd"])
    #expect(await eventually { seen.ended.withLock { $0 } == [1] })
    #expect(await eventually { received.withLock { $0 }.contains { $0.venue == 0 } })
    feeds.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(seen.opened.withLock { $0 } == [0, 1])
    try await reader.value
    let quotes = received.withLock { $0 }
    #expect(quotes.filter { $0.venue == 0 }.map(\.symbol) == ["BTCUSDT"])
    #expect(quotes.filter { $0.venue == 1 }.map(\.symbol) == ["BTC-USD"])
    #expect(quotes.count == 2)
    #expect(servers[1].record.subscriptions.map(\.subscribed) == [["BTC-USD"]])
  }

  @Test("venues opened at start: the first to end is told, the last one's end is the run's")
  func lastEndEndsTheRun() async throws {
    let servers = [try Self.server(.binance), try Self.server(.coinbase)]
    defer { servers.forEach { $0.stop() } }
    let seen = Seen()
    let feeds = Self.feeds(servers, startWith: [0: ["BTCUSDT"], 1: ["BTC-USD"]], seen)
    let outcome = await feeds.run()
    #expect(outcome == .serverClosed(CloseStatus(code: .normalClosure)))
    #expect(Set(seen.opened.withLock { $0 }) == [0, 1])
    let ended = seen.ended.withLock { $0 }
    #expect(ended.count == 1)
    #expect(Set(ended + [feeds.lastEnded ?? -1]) == [0, 1])
  }

  @Test("a venue that cannot be opened is told; a stop ends a run that opened nothing else")
  func unavailableThenStopped() async throws {
    let seen = Seen()
    let feeds = Self.feeds([nil, nil], startWith: [:], seen)
    let run = Task.preferringCurrentExecutor { await feeds.run() }
    feeds.subscribe(["coinbase/BTC-USD"])
    #expect(await eventually { seen.unavailable.withLock { $0 } == [1] })
    feeds.stop(.signal(15))
    #expect(await run.value == .stopped(.signal(15)))
    #expect(seen.opened.withLock { $0 } == [1])
    #expect(seen.ended.withLock { $0 }.isEmpty)
  }

  @Test(
    "a run's venues open at start only: a symbol of another venue, or of a default venue it does not follow, is reported"
  )
  func atStartOnly() async throws {
    let servers = [try Self.server(.binance, ending: .hold), try Self.server(.coinbase, ending: .hold)]
    defer { servers.forEach { $0.stop() } }
    let reports = Mutex<[FeedReport]>([])
    let feeds = FeedGroup(
      venues: [Self.providers[0]], defaultVenue: "kraken", startWith: [0: ["BTCUSDT"]], opening: .atStartOnly,
      opener: { _ in
        { symbols, bus, venue in
          Feed(
            Feed.Settings(
              provider: Self.providers[0], engine: NativeEngine(),
              url: Self.providers[0].endpoint(base: servers[0].url, token: nil),
              session: SessionConfiguration(maxRetries: 0), mode: .everyTrade, symbols: symbols),
            bus: bus, venue: venue
          ) { _ in }
        }
      }, ended: { _, _ in }, report: { report in reports.withLock { $0.append(report) } })
    let run = Task.preferringCurrentExecutor { await feeds.run() }
    feeds.subscribe(["coinbase/BTC-USD", "ETHUSDT"])
    feeds.subscribe(["binance/ETHUSDT"])
    #expect(
      await eventually {
        reports.withLock {
          $0.contains(
            .controlError(
              .invalidSymbol("coinbase/BTC-USD", "this run does not follow coinbase (it follows binance)"))
          )
            && $0.contains(
              .controlError(.invalidSymbol("ETHUSDT", "this run does not follow kraken (it follows binance)"))
            )
        }
      })
    #expect(
      await eventually {
        servers[0].record.subscriptions.last?.subscribed == ["btcusdt@trade", "ethusdt@trade"]
      },
      "server: \(servers[0].record.subscriptions), \(servers[0].record.connections) connection(s); reports: \(reports.withLock { $0 })"
    )
    #expect(servers[1].record.connections == 0)
    feeds.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
  }
}

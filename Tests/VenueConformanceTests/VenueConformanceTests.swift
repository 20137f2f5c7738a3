import Emulators
import FeedRuntime
import Foundation
import Recording
import Synchronization
import Testing
import Venues

@testable import TestSupport

/// The one suite every venue of the catalog passes against its emulation, with the feed runtime
/// as the ticker runs it (`Feed`, the native engine, real sockets on loopback): subscribe and
/// print exactly what the venue sent, change the subscription while running, have a symbol
/// refused, keep the connection by the venue's rule, reconnect and resubscribe, survive garbage
/// and an oversized message, and the demo. A new venue's folders and its catalog line are all
/// it takes to be tested here. Timings are the venues' own scaled down (`EmulatorRules.scaled`,
/// `Provider.scaled`): no test waits on a venue's real timer.
@Suite("Every venue against its emulation", .timeLimit(.minutes(2)), .ownThread)
struct VenueConformanceTests {
  @Test("subscribes and prints the demo session's prices exactly as sent", arguments: VenueEmulation.catalog)
  func exactPrices(venue: VenueEmulation) async throws {
    let server = try Conformance.server(venue, script: venue.demoSession, ending: .hold)
    defer { server.stop() }
    let run = Conformance.Run(venue, server: server, symbols: [Conformance.example(venue)])
    let expected = venue.demoPrices
    #expect(!expected.isEmpty)
    #expect(await eventually { run.quotes(of: Conformance.example(venue)).count >= expected.count })
    #expect(
      Array(run.quotes(of: Conformance.example(venue)).prefix(expected.count).map(\.price.text)) == expected)
    #expect(!run.reports.contains { if case .venueError = $0 { true } else { false } }, "\(run.reports)")
    await run.stop()
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
  }

  @Test(
    "a symbol added while running trades, and removed stops: the venue is told each change",
    arguments: VenueEmulation.catalog)
  func changeWhileRunning(venue: VenueEmulation) async throws {
    let server = try Conformance.server(
      venue, script: venue.demoSession, ending: .synthetic(seed: 7, interval: 0.02), acceptAnySymbol: true,
      paced: true)
    defer { server.stop() }
    let example = Conformance.example(venue)
    let added = Conformance.canonical(venue.untradedSymbol, venue)
    let run = Conformance.Run(venue, server: server, symbols: [example])
    #expect(await eventually { !run.quotes(of: example).isEmpty })
    let requests = server.record.subscriptions.count
    run.feed.subscribe([venue.untradedSymbol])
    #expect(await eventually { run.quotes(of: added).count >= 3 }, "\(run.reports)")
    #expect(server.record.subscriptions.count > requests)
    run.feed.unsubscribe([venue.untradedSymbol])
    #expect(
      await eventually {
        run.reports.contains { $0 == .subscriptionChanged(added: [], removed: [added], now: [example]) }
      })
    // Once the venue has the change, nothing more of the removed symbol comes through.
    #expect(await eventually { server.record.subscriptions.last?.subscribed.count == 1 })
    let seen = run.quotes(of: added).count
    #expect(await eventually { run.quotes(of: example).count >= 5 })
    #expect(run.quotes(of: added).count == seen)
    await run.stop()
  }

  @Test(
    "a symbol the venue does not list: refused by name (the rest goes on), or accepted and starved",
    arguments: VenueEmulation.catalog)
  func unknownSymbol(venue: VenueEmulation) async throws {
    let server = try Conformance.server(venue, script: venue.demoSession, ending: .hold)
    defer { server.stop() }
    let example = Conformance.example(venue)
    let unknown = Conformance.canonical(venue.untradedSymbol, venue)
    let run = Conformance.Run(venue, server: server, symbols: [example])
    #expect(await eventually { !run.quotes(of: example).isEmpty })
    run.feed.subscribe([venue.untradedSymbol])
    if venue.refusesUnknownSymbols {
      // Taken back (a venue that answers each request), or reported as the venue's error
      // naming it (one that does not).
      let spelled = venue.provider.serverSymbol(for: unknown)
      #expect(
        await eventually {
          run.reports.contains {
            switch $0 {
            case .changeRefused(_, let symbols): symbols == [unknown]
            case .venueError(let error): error.symbol == spelled && !error.fatal
            default: false
            }
          }
        }, "\(run.reports)")
    } else {
      #expect(await eventually { server.record.subscriptions.contains { $0.subscribed.count == 2 } })
    }
    #expect(run.quotes(of: unknown).isEmpty)
    #expect(!run.ended)
    await run.stop()
  }

  @Test(
    "the venue's keepalive rule, its timings scaled: kept by the runtime's keepalive, lost without it",
    arguments: VenueEmulation.catalog)
  func keepalive(venue: VenueEmulation) async throws {
    // Each venue's deadline scaled to 8 s (at 4 s, a whole swift test on two cores once held a
    // client or the server's reader back past it); the client's duties at half of that scale
    // again, so that a late timer cannot decide the outcome (OKX's ping every 20 s against its
    // 30 s quiet close leaves 2.7 s at this scale, 5.3 s at half of it), and no faster: the venues'
    // message limits are not scaled, and a server thread that reads late counts a quarter-scale
    // client's messages together (Kraken's five a second was broken so once).
    let real = venue.idleDeadline
    let factor = real.map { 8 / $0 } ?? 1
    let scaled = venue.scaled(by: factor)
    let deadline = scaled.idleDeadline ?? 1
    let kept = try Conformance.server(scaled, script: venue.demoSession, ending: .hold)
    let lost = try Conformance.server(scaled, script: venue.demoSession, ending: .hold)
    defer {
      kept.stop()
      lost.stop()
    }
    let example = Conformance.example(venue)
    let keeping = Conformance.Run(
      venue, server: kept, symbols: [example], provider: venue.provider.scaled(by: factor / 2))
    // The same venue with its client duties at their real (much longer) pace.
    let lapsing = Conformance.Run(venue, server: lost, symbols: [example], provider: venue.provider)
    #expect(await eventually { !keeping.quotes(of: example).isEmpty && !lapsing.quotes(of: example).isEmpty })
    // What is checked is an absence (no close past the venue's deadline), which takes the time
    // itself to pass; the feeds run on this test's own thread (.ownThread), so load on the pool
    // cannot make them late.
    try await Task.sleep(for: .seconds(1.5 * deadline))
    #expect(kept.record.connections == 1, "\(kept.record.violations) \(keeping.reports)")
    #expect(kept.record.violations.isEmpty, "\(kept.record.violations)")
    // Where keeping the connection is the client's duty (not the engine's answer to the
    // venue's pings), the client at its real pace loses it.
    if real != nil, venue.provider.keepalive != nil {
      #expect(await eventually(within: 4 * deadline) { lost.record.connections >= 2 }, "\(lost.record)")
    }
    await keeping.stop()
    await lapsing.stop()
  }

  @Test(
    "a dropped connection: the runtime reconnects and subscribes again", arguments: VenueEmulation.catalog)
  func reconnect(venue: VenueEmulation) async throws {
    let server = try Conformance.server(venue, script: venue.demoSession, ending: .hold)
    defer { server.stop() }
    let example = Conformance.example(venue)
    let run = Conformance.Run(venue, server: server, symbols: [example])
    #expect(await eventually { !run.quotes(of: example).isEmpty })
    let first = run.quotes(of: example).count
    server.dropConnections()
    #expect(await eventually { server.record.connections >= 2 })
    #expect(await eventually { Set(server.record.subscriptions.map(\.connection)).count >= 2 })
    #expect(await eventually { run.quotes(of: example).count > first }, "\(run.reports)")
    #expect(
      await eventually { run.reports.contains { if case .connected(1, _) = $0 { true } else { false } } })
    await run.stop()
  }

  @Test(
    "garbage, terminal escapes and an oversized message: reported, the run goes on",
    arguments: VenueEmulation.catalog
  )
  func hostile(venue: VenueEmulation) async throws {
    let oversized = String(repeating: "x", count: 80 << 10)
    let hostile: ConnectionPlan.Ending = .send(
      .binary, "\u{1B}[2J\u{1B}]0;owned\u{07}\u{FF}",
      then: .send(.text, "{\"\u{1B}[31m\":[\u{9B}1m", then: .send(.text, oversized, then: .hold)))
    let server = try Conformance.server(
      venue, script: venue.demoSession, ending: .hold,
      plans: [ConnectionPlan(ending: hostile), ConnectionPlan(ending: .hold)])
    defer { server.stop() }
    let example = Conformance.example(venue)
    let run = Conformance.Run(venue, server: server, symbols: [example], maximumMessageSize: 64 << 10)
    // The message over the limit ends the first connection; the second trades as before.
    #expect(await eventually { server.record.connections >= 2 }, "\(run.reports)")
    #expect(await eventually { run.quotes(of: example).count >= 2 * venue.demoPrices.count })
    #expect(run.reports.contains { if case .disconnected = $0 { true } else { false } })
    #expect(
      run.quotes.allSatisfy { $0.symbol == example || $0.symbol == venue.provider.serverSymbol(for: example) }
    )
    #expect(!run.ended)
    await run.stop()
  }

  @Test(
    "the demo: the recorded prices, then a walk of any symbol the venue lists",
    arguments: VenueEmulation.catalog)
  func demo(venue: VenueEmulation) async throws {
    let server = try Conformance.server(
      venue.patient(), script: venue.demoSession, ending: .synthetic(seed: 2026, interval: 0.02),
      acceptAnySymbol: true, awaitSubscriptions: 2, paced: true)
    defer { server.stop() }
    let example = Conformance.example(venue)
    let other = Conformance.canonical(venue.untradedSymbol, venue)
    let run = Conformance.Run(venue, server: server, symbols: [example, other])
    #expect(await eventually { run.quotes(of: other).count >= 3 && run.quotes(of: example).count >= 3 })
    let walked = run.quotes(of: other).map(\.price)
    #expect(walked.allSatisfy { $0.value > 0 })
    #expect(Set(walked.map(\.text)).count > 1)
    await run.stop()
  }
}

extension VenueConformanceTests {
  @Test(
    "the demo's market: the venue's main BTC market and its conversion pairs trade at the market's price and time",
    arguments: VenueEmulation.catalog)
  func market(venue: VenueEmulation) async throws {
    let start: Int64 = 1_800_000_000_000
    let clock = Mutex<Int64>(start)
    // Each question moves the clock on: the market's walk goes on while the run reads it.
    let market = DemoMarket(clock: {
      clock.withLock { now in
        defer { now += 100 }
        return now
      }
    })
    let provider = venue.provider
    let main = try #require(provider.mainMarket(for: "BTC"))
    let pairs = ["KRW", "USD", "EUR"].compactMap(provider.conversionPair(for:))
    let symbols = [main] + pairs
    let server = try Conformance.server(
      venue.patient(), script: venue.demoSession, ending: .market(market, interval: 0.02),
      acceptAnySymbol: true, awaitSubscriptions: symbols.count, paced: true)
    defer { server.stop() }
    let run = Conformance.Run(venue, server: server, symbols: symbols)
    #expect(await eventually { symbols.allSatisfy { run.quotes(of: $0).count >= 5 } })
    await run.stop()
    // The same market again, asked in time order, says what each trade's price was made from.
    let replica = DemoMarket(clock: { start })
    var traded: [(symbol: String, market: Market, quote: Quote)] = []
    for symbol in symbols {
      let named = try #require(provider.market(of: symbol), "\(symbol)")
      let quotes = run.quotes(of: symbol)
      #expect(quotes.map(\.time) == quotes.map(\.time).sorted(), "\(symbol)")
      traded += quotes.map { (symbol, named, $0) }
    }
    for (symbol, named, quote) in traded.sorted(by: { $0.quote.time < $1.quote.time }) {
      let expected = Double(replica.cents(of: named, venue: provider.name, at: quote.time)) / 100
      // The trade's noise (a basis point) and a tick either way; whole won where the venue
      // prints won.
      let tolerance = expected * 0.00015 + (named.quote == "KRW" ? 1 : 0.02)
      #expect(
        abs(quote.price.value - expected) <= tolerance,
        "\(symbol) at \(quote.time): \(quote.price), not \(expected)")
      #expect(quote.time >= start && quote.time <= clock.withLock { $0 }, "\(quote.time)")
    }
  }
}

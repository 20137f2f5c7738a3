import TestSupport
import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import Venues

@Suite struct PriceStageTests {
  typealias Stage = PriceStage<TestInstant>
  let half = PriceStageMode.debounced(interval: .milliseconds(500), maxWait: .milliseconds(500))

  @Test func modeFromSettings() {
    #expect(PriceStageMode(debounce: .milliseconds(500)) == .default)
    #expect(PriceStageMode(debounce: .zero, maxWait: .seconds(3)) == .distinct)
    #expect(PriceStageMode(debounce: .seconds(1), everyTrade: true) == .everyTrade)
    #expect(
      PriceStageMode(debounce: .seconds(1), maxWait: .seconds(2))
        == .debounced(interval: .seconds(1), maxWait: .seconds(2)))
  }

  @Test func everyTradePassesDuplicates() {
    var stage = Stage(mode: .everyTrade)
    let batch = [q("A", "1", 1), q("A", "1", 1), q("A", "1.0", 0)]
    #expect(stage.receive(batch, at: .ms(0)) == batch)
    #expect(stage.receive(batch, at: .ms(1)) == batch)
    #expect(stage.nextDeadline == nil)
    #expect(stage.tick(at: .ms(10_000)).isEmpty)
    #expect(stage.flush().isEmpty)
  }

  /// Quotes given up (`receive(taking:at:)`) come out as quotes lent, in every mode; the array
  /// is left empty with its capacity.
  @Test(arguments: [PriceStageMode.everyTrade, .distinct, .default])
  func takingEqualsReceiving(mode: PriceStageMode) {
    var lent = Stage(mode: mode)
    var given = Stage(mode: mode)
    let batches = [
      [q("A", "1", 10), q("B", "2", 10), q("A", "1.0", 11)], [q("A", "3", 9)], [],
      [q("B", "2", 12), q("A", "4", 13), q("A", "5", 12)],
    ]
    for (step, batch) in batches.enumerated() {
      let now = TestInstant.ms(Int64(step) * 300)
      var taken = batch
      taken.reserveCapacity(16)
      let capacity = taken.capacity
      #expect(given.receive(taking: &taken, at: now) == lent.receive(batch, at: now), "step \(step)")
      #expect(taken.isEmpty && taken.capacity == capacity, "step \(step)")
    }
    #expect(given.tick(at: .ms(5_000)) == lent.tick(at: .ms(5_000)))
    #expect(given.flush() == lent.flush())
  }

  @Test func distinctDropsRepeatsAndStaleQuotes() {
    var stage = Stage(mode: .distinct)
    #expect(
      describe(stage.receive([q("A", "1", 10), q("A", "1.0", 11), q("A", "2", 12)], at: .ms(0))) == [
        "A 1 @10", "A 2 @12",
      ])
    // Stale: older than the newest accepted trade.
    #expect(stage.receive([q("A", "3", 11)], at: .ms(1)).isEmpty)
    // Same price again later: suppressed; a newer different price passes.
    #expect(describe(stage.receive([q("A", "2", 13), q("A", "4", 13)], at: .ms(2))) == ["A 4 @13"])
    // The repeat at 13 moved the newest time; equal time is not stale.
    #expect(describe(stage.receive([q("A", "5", 13)], at: .ms(3))) == ["A 5 @13"])
  }

  @Test func distinctSortsASymbolsQuotesWithinABatch() {
    var stage = Stage(mode: .distinct)
    let batch = [
      q("A", "1", 30), q("B", "7", 5), q("A", "2", 10), q("B", "8", 1), q("A", "3", 20), q("A", "4", 10),
    ]
    #expect(
      describe(stage.receive(batch, at: .ms(0))) == [
        "A 2 @10", "B 8 @1", "A 4 @10", "B 7 @5", "A 3 @20", "A 1 @30",
      ])
  }

  @Test func trailingDebounceWaitsForQuiet() {
    var stage = Stage(mode: .debounced(interval: .milliseconds(500), maxWait: .seconds(10)))
    #expect(stage.receive([q("A", "1", 1)], at: .ms(0)).isEmpty)
    #expect(stage.nextDeadline == .ms(500))
    #expect(stage.receive([q("A", "2", 2)], at: .ms(300)).isEmpty)
    #expect(stage.nextDeadline == .ms(800))
    #expect(stage.tick(at: .ms(799)).isEmpty)
    #expect(describe(stage.tick(at: .ms(800))) == ["A 2 @2"])
    #expect(stage.nextDeadline == nil)
    #expect(stage.tick(at: .ms(5000)).isEmpty)
  }

  @Test func latestTradeTimeWinsNotLatestArrival() {
    var stage = Stage(mode: half)
    _ = stage.receive([q("A", "1", 100), q("A", "2", 90)], at: .ms(0))
    _ = stage.receive([q("A", "3", 95)], at: .ms(100))
    #expect(describe(stage.tick(at: .ms(600))) == ["A 1 @100"])
    // Later, something older than what was printed is stale and never pending.
    #expect(stage.receive([q("A", "9", 99)], at: .ms(700)).isEmpty)
    #expect(stage.nextDeadline == nil)
  }

  @Test func maxWaitBoundsAContinuousStream() {
    let interval = Duration.milliseconds(500)
    var stage = Stage(mode: .debounced(interval: interval, maxWait: interval))
    var printedAt: [Int64] = []
    var printed: [Quote] = []
    for step in Int64(0)..<300 {  // a new price every 10 ms for 3 s
      let now = step * 10
      let out = stage.receive([q("BTC", "\(1000 + step)", 1_000_000 + now)], at: .ms(now))
      printed += out
      printedAt += out.map { _ in now }
    }
    #expect(printedAt.count >= 5)
    #expect(printedAt.first.map { $0 <= 500 } == true)
    for (a, b) in zip(printedAt, printedAt.dropFirst()) {
      #expect(b - a <= 510)  // maxWait, plus the time until the next quote arrives
    }
    // What is printed is the newest price received before its deadline: a quote arriving at the
    // deadline comes after the release (as when the timer fires on time).
    for (at, quote) in zip(printedAt, printed) {
      #expect(quote.time == 1_000_000 + at - 10)
    }
  }

  @Test func debouncedDedupesAgainstLastPrinted() {
    var stage = Stage(mode: half)
    _ = stage.receive([q("A", "95380", 1)], at: .ms(0))
    #expect(describe(stage.tick(at: .ms(500))) == ["A 95380 @1"])
    _ = stage.receive([q("A", "95380.0", 2)], at: .ms(1000))
    #expect(stage.tick(at: .ms(1500)).isEmpty)
    #expect(stage.lastPrinted(for: "A")?.text == "95380")
    _ = stage.receive([q("A", "95381", 3)], at: .ms(2000))
    #expect(describe(stage.tick(at: .ms(2500))) == ["A 95381 @3"])
  }

  @Test func symbolsAreIndependent() {
    var stage = Stage(mode: half)
    _ = stage.receive([q("A", "1", 1)], at: .ms(0))
    _ = stage.receive([q("B", "2", 1)], at: .ms(200))
    _ = stage.receive([q("A", "1.5", 2)], at: .ms(400))
    #expect(stage.nextDeadline == .ms(500))  // A's maxWait from 0
    #expect(describe(stage.tick(at: .ms(500))) == ["A 1.5 @2"])
    #expect(stage.nextDeadline == .ms(700))
    _ = stage.receive([q("A", "1.5", 3)], at: .ms(600))
    #expect(describe(stage.tick(at: .ms(700))) == ["B 2 @1"])
    #expect(stage.tick(at: .ms(1100)).isEmpty)  // A's repeat of 1.5 deduped
    #expect(stage.nextDeadline == nil)
  }

  @Test func tickReleasesInDeadlineOrder() {
    var stage = Stage(mode: .debounced(interval: .milliseconds(100), maxWait: .seconds(1)))
    _ = stage.receive([q("A", "1", 1)], at: .ms(50))
    _ = stage.receive([q("B", "2", 1)], at: .ms(0))
    #expect(describe(stage.tick(at: .ms(1000))) == ["B 2 @1", "A 1 @1"])
  }

  @Test func flushReleasesPending() {
    var stage = Stage(mode: half)
    _ = stage.receive([q("A", "1", 1), q("B", "2", 1)], at: .ms(0))
    #expect(describe(stage.flush()) == ["A 1 @1", "B 2 @1"])
    #expect(stage.flush().isEmpty)
    #expect(stage.nextDeadline == nil)
  }

  @Test func fixtureSessionDistinct() throws {
    let lines = try Fixture.session("finnhub-session.ndjson").filter {
      $0.direction == "S>" && $0.kind == "text"
    }
    var stage = Stage(mode: .distinct)
    var out: [Quote] = []
    for (i, line) in lines.enumerated() {
      out += stage.receive(FinnhubProvider().decode(.text(line.body)).quotes, at: .ms(Int64(i)))
    }
    #expect(
      describe(out) == [
        "BINANCE:BTCUSDT 95372.09 @1768655932976", "BINANCE:BTCUSDT 95372.1 @1768655933296",
        "BINANCE:BTCUSDT 95371.9 @1768655933390", "BINANCE:BTCUSDT 95371.85 @1768655933402",
        "AAPL 122.1 @1768655933500", "AAPL 122.09 @1768655933501", "BINANCE:BTCUSDT 95372.3 @1768655933510",
        "BINANCE:BTCUSDT 95380 @1768655961000",
      ])
  }

  @Test func worksWithContinuousClockInstants() {
    var stage = PriceStage<ContinuousClock.Instant>()
    let start = ContinuousClock.Instant.now
    _ = stage.receive([q("A", "1", 1)], at: start)
    #expect(stage.nextDeadline == start.advanced(by: .milliseconds(500)))
    #expect(describe(stage.tick(at: start.advanced(by: .seconds(1)))) == ["A 1 @1"])
  }
}

import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import TestSupport
@testable import Venues

/// The debounced stage's output depends only on when quotes arrived: a caller whose timer fires
/// late (or never, until the next quote) prints the same lines as one that ticks exactly at every
/// deadline. This is what lets a replay print exactly what the live run printed.
@Suite(.ownThread) struct PriceStageTimingTests {
  typealias Stage = PriceStage<TestInstant>

  /// A small seeded generator, so that every run tries the same cases.
  struct LCG {
    var state: UInt64
    mutating func next(_ bound: Int64) -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int64((state >> 33) % UInt64(bound))
    }
  }

  /// Arrivals: (ms, quote), increasing ms; several symbols, gaps around the debounce interval.
  static func arrivals(seed: UInt64) -> [(Int64, [Quote])] {
    var random = LCG(state: seed)
    var now: Int64 = 0
    var out: [(Int64, [Quote])] = []
    for step in 0..<400 {
      now += [1, 5, 40, 120, 260, 499, 500, 501, 700, 1300][Int(random.next(10))]
      var quotes: [Quote] = []
      for _ in 0...random.next(3) {
        let symbol = ["A", "B", "C"][Int(random.next(3))]
        quotes.append(q(symbol, "\(100 + random.next(6))", 1_000 + Int64(step) * 10 + random.next(15)))
      }
      out.append((now, quotes))
    }
    return out
  }

  /// Ticks exactly at each deadline before every arrival, and at the end.
  static func onTime(_ mode: PriceStageMode, _ arrivals: [(Int64, [Quote])], end: Int64) -> [String] {
    var stage = Stage(mode: mode)
    var out: [Quote] = []
    func tick(upTo limit: Int64) {
      while let deadline = stage.nextDeadline, deadline <= .ms(limit) {
        out += stage.tick(at: deadline)
      }
    }
    for (at, quotes) in arrivals {
      tick(upTo: at)
      out += stage.receive(quotes, at: .ms(at))
    }
    tick(upTo: end)
    out += stage.flush()
    return describe(out)
  }

  /// Ticks late by `lateness` ms (when that is before the next arrival), or not at all.
  static func late(
    _ mode: PriceStageMode, _ arrivals: [(Int64, [Quote])], end: Int64, lateness: Int64?, seed: UInt64
  ) -> [String] {
    var random = LCG(state: seed)
    var stage = Stage(mode: mode)
    var out: [Quote] = []
    for (index, (at, quotes)) in arrivals.enumerated() {
      out += stage.receive(quotes, at: .ms(at))
      let next = index + 1 < arrivals.count ? arrivals[index + 1].0 : end
      if let lateness, let deadline = stage.nextDeadline {
        let fire = deadline.advanced(by: .milliseconds(random.next(lateness + 1)))
        if fire < .ms(next) { out += stage.tick(at: fire) }
      }
    }
    out += stage.tick(at: .ms(end))
    out += stage.flush()
    return describe(out)
  }

  @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
  func lateTicksPrintWhatOnTimeTicksPrint(seed: UInt64) {
    let arrivals = Self.arrivals(seed: seed)
    let end = arrivals.last!.0 + 200
    for mode in [
      PriceStageMode.default, .debounced(interval: .milliseconds(250), maxWait: .seconds(1)),
      .debounced(interval: .seconds(1), maxWait: .milliseconds(300)),
    ] {
      let expected = Self.onTime(mode, arrivals, end: end)
      #expect(!expected.isEmpty)
      for lateness in [Int64(0), 3, 50, 400, 5000] as [Int64?] + [nil] {
        #expect(
          Self.late(mode, arrivals, end: end, lateness: lateness, seed: seed) == expected,
          "mode \(mode), lateness \(lateness.map(String.init) ?? "never")")
      }
    }
  }

  /// The case that used to differ: a quote arriving after a deadline the timer has not yet
  /// fired for. The due price prints first; the new one waits its own interval.
  @Test func aQuoteAfterAMissedDeadlineComesAfterTheDuePrice() {
    var stage = Stage(mode: .default)
    #expect(stage.receive([q("A", "1", 1)], at: .ms(0)).isEmpty)
    // The deadline was 500; the timer is late, and a new price arrives at 520.
    #expect(describe(stage.receive([q("A", "2", 2)], at: .ms(520))) == ["A 1 @1"])
    #expect(stage.nextDeadline == .ms(1020))
    #expect(describe(stage.tick(at: .ms(1020))) == ["A 2 @2"])
  }
}

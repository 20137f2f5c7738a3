import Testing

@testable import FeedRuntime
@testable import Outputs
@testable import TestSupport
@testable import TickerSupport
@testable import Venues

/// The debounced stage keeps its earliest deadline incrementally (so a batch does not scan every
/// symbol). This reference is the plain algorithm it replaced — scan every symbol's state on
/// each tick and for each next deadline — over the same `SymbolState`, and the two must agree on
/// every output and every next deadline, for random batches, symbols, trade times and instants.
@Suite("PriceStage agrees with the scanning reference", .ownThread)
struct PriceStageModelTests {
  struct Reference {
    let interval: Duration
    let maxWait: Duration
    var index: [String: Int] = [:]
    var states: [SymbolState] = []
    // The reference holds each instant as its offset from TestInstant's zero; the stage, from the
    // first instant it was given: the two also differ in their origin.

    mutating func receive(_ quotes: [Quote], at now: TestInstant) -> [Quote] {
      var out = tick(at: now)
      for quote in quotes {
        let i = index[quote.symbol] ?? states.count
        if i == states.count {
          index[quote.symbol] = i
          states.append(SymbolState())
        }
        guard !states[i].isStale(quote) else { continue }
        states[i].hold(quote, at: now.offset)
      }
      out += tick(at: now)
      return out
    }

    mutating func tick(at now: TestInstant) -> [Quote] {
      var due: [(deadline: Duration, index: Int)] = []
      for i in states.indices {
        if let d = states[i].deadline(interval: interval, maxWait: maxWait), d <= now.offset {
          due.append((d, i))
        }
      }
      due.sort { $0.deadline < $1.deadline || ($0.deadline == $1.deadline && $0.index < $1.index) }
      return due.compactMap { states[$0.index].release() }
    }

    var nextDeadline: TestInstant? {
      states.compactMap { $0.deadline(interval: interval, maxWait: maxWait) }.min().map(
        TestInstant.init(offset:))
    }
  }

  @Test("random sessions", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func randomSessions(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    func draw(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
    let interval = Duration.milliseconds(Int64(draw(400) + 1))
    let maxWait = Duration.milliseconds(Int64(draw(1_200) + 1))
    let symbolCount = Int(draw(12) + 1)
    var stage = PriceStage<TestInstant>(mode: .debounced(interval: interval, maxWait: maxWait))
    var reference = Reference(interval: interval, maxWait: maxWait)
    var now = Int64(draw(100_000))  // any origin: the stage counts from its first instant
    var time: Int64 = 1_000
    for step in 0..<3_000 {
      now += Int64(draw(120))
      if draw(4) == 0 {
        #expect(stage.tick(at: .ms(now)) == reference.tick(at: .ms(now)), "step \(step)")
      } else {
        var batch: [Quote] = []
        for _ in 0..<draw(6) {
          // Trade times mostly rise, sometimes go back (stale or out-of-order quotes).
          time += Int64(draw(5)) - 1
          let symbol = "S\(draw(symbolCount))"
          batch.append(q(symbol, "\(100 + draw(4))", time))
        }
        let expected = reference.receive(batch, at: .ms(now))
        if draw(2) == 0 {
          #expect(stage.receive(batch, at: .ms(now)) == expected, "step \(step)")
        } else {
          // Given up: the quotes move into the stage, and the array is left empty.
          var taken = batch
          taken.reserveCapacity(8)
          let capacity = taken.capacity
          #expect(stage.receive(taking: &taken, at: .ms(now)) == expected, "step \(step)")
          #expect(taken.isEmpty && taken.capacity == capacity, "step \(step)")
        }
      }
      #expect(stage.nextDeadline == reference.nextDeadline, "step \(step)")
    }
  }
}

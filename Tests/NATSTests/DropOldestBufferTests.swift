import Emulators
import FeedRuntime
import Outputs
import Synchronization
import Testing
import Venues

@testable import NATS
@testable import TickerSupport

@Suite("Drop-oldest buffer")
struct DropOldestBufferTests {
  /// A message of `size` bytes, all equal to `tag` (so its content tells which one it was).
  static func message(_ tag: Int, size: Int = 10) -> [UInt8] {
    Array(repeating: UInt8(tag & 0xFF), count: size)
  }

  @Test("beyond the capacity the oldest go, counted; order is kept")
  func capacity() {
    var buffer = DropOldestBuffer(capacity: 3, byteLimit: 1000)
    for i in 1...5 { buffer.append(Self.message(i)) }
    #expect(buffer.count == 3 && buffer.dropped == 2 && buffer.bytes == 30)
    let taken = buffer.take(maxBytes: 1000)
    #expect(taken.messages == 3 && taken.bytes == Self.message(3) + Self.message(4) + Self.message(5))
    #expect(buffer.isEmpty && buffer.bytes == 0)
  }

  @Test("the byte limit drops as many old messages as the new one needs")
  func bytes() {
    var buffer = DropOldestBuffer(capacity: 100, byteLimit: 100)
    buffer.append(Self.message(1, size: 40))
    buffer.append(Self.message(2, size: 40))
    #expect(buffer.append(Self.message(3, size: 90)) == 2)
    #expect(buffer.take(maxBytes: 1000).bytes == Self.message(3, size: 90))
    #expect(buffer.append(Self.message(4, size: 101)) == 1)  // bigger than the whole buffer: refused
    #expect(buffer.isEmpty && buffer.dropped == 3)
  }

  @Test("take hands out at most about maxBytes, at least one message")
  func take() {
    var buffer = DropOldestBuffer(capacity: 100, byteLimit: 10_000)
    for i in 0..<10 { buffer.append(Self.message(i, size: 100)) }
    #expect(buffer.take(maxBytes: 250).messages == 2)
    #expect(buffer.take(maxBytes: 50).bytes == Self.message(2, size: 100))
    #expect(buffer.dropAll() == 7)
    #expect(buffer.dropped == 7)
  }

  @Test("a long run against a model: the newest `capacity` messages, in order, byte for byte")
  func model() {
    var random = SplitMix64(seed: 99)
    var buffer = DropOldestBuffer(capacity: 500, byteLimit: 20_000)
    var model: [[UInt8]] = []
    var modelBytes = 0
    var dropped = 0
    var next = 0
    // Checked after every step; the model keeps its byte count as it goes (the test stays
    // linear: a pure test must not hold one of the test runner's few threads for long).
    for _ in 0..<4_000 {
      if Int.random(in: 0..<10, using: &random) < 7 {
        for _ in 0..<Int.random(in: 1...50, using: &random) {
          let message = Self.message(next, size: Int.random(in: 1...120, using: &random))
          buffer.append(message)
          model.append(message)
          modelBytes += message.count
          next += 1
          while model.count > 500 || modelBytes > 20_000 {
            modelBytes -= model.removeFirst().count
            dropped += 1
          }
        }
      } else {
        let limit = Int.random(in: 1...2000, using: &random)
        let taken = buffer.take(maxBytes: limit)
        var expected: [UInt8] = []
        var n = 0
        for message in model {
          if n > 0 && expected.count + message.count > limit { break }
          expected += message
          n += 1
        }
        #expect(taken.messages == n && taken.bytes == expected)
        modelBytes -= expected.count
        model.removeFirst(n)
      }
      #expect(buffer.count == model.count)
      #expect(buffer.bytes == modelBytes)
    }
    #expect(buffer.dropped == dropped)
  }

  @Test("a .dropOldest bus output never holds the publisher back, and counts what it lost")
  func busDropOldest() async {
    let bus = QuoteBus()
    let lost = Counter()
    let subscription = bus.subscribe(capacity: 4, overflow: .dropOldest(onDrop: { lost.add($0) }))
    let quote = Quote(symbol: "A", price: Price("1")!, time: 0)
    // Nobody reads: 10 batches of 2 quotes go through without waiting; the oldest 6 are evicted.
    for _ in 0..<10 { await bus.publish([quote, quote]) }
    #expect(lost.value == 12)
    bus.finish()
    var kept = 0
    while let batches = try? await subscription.queue.nextBatch() { kept += batches.count }
    #expect(kept == 4)
  }

  @Test("a .dropOldest bus output also stays within its quote limit, evicting whole batches")
  func busQuoteLimit() async {
    let bus = QuoteBus()
    let lost = Counter()
    let subscription = bus.subscribe(
      capacity: 100, quoteLimit: 10, overflow: .dropOldest(onDrop: { lost.add($0) }))
    let quote = Quote(symbol: "A", price: Price("1")!, time: 0)
    for _ in 0..<5 { await bus.publish(Array(repeating: quote, count: 4)) }
    // 20 quotes offered, at most 10 held: batches 1–3 evicted, 4 and 5 kept.
    #expect(lost.value == 12)
    bus.finish()
    var kept = 0
    while let batches = try? await subscription.queue.nextBatch() {
      kept += batches.reduce(0) { $0 + $1.count }
    }
    #expect(kept == 8)
  }
}

final class Counter: Sendable {
  private let total = Mutex(0)
  func add(_ n: Int) { total.withLock { $0 += n } }
  var value: Int { total.withLock { $0 } }
}

import Dispatch
import Synchronization
import Testing

@testable import TestSupport
@testable import TickerSupport

@Suite struct MessageChannelTests {
  struct Boom: Error, Equatable {}

  @Test func deliversInOrderThenEnds() async throws {
    let channel = MessageChannel<Int>(capacity: 8)
    DedicatedThread.start {
      for i in 0..<1000 { channel.push(i) }
      channel.finish()
    }
    var seen: [Int] = []
    for try await value in channel { seen.append(value) }
    #expect(seen == Array(0..<1000))
  }

  @Test("a producer thread never runs more than `capacity` ahead of the consumer")
  func threadBackpressure() async throws {
    let channel = MessageChannel<Int>(capacity: 4)
    let pushed = Atomic<Int>(0)
    DedicatedThread.start {
      for i in 0..<200 {
        channel.push(i)
        pushed.add(1, ordering: .sequentiallyConsistent)
      }
      channel.finish()
    }
    var consumed = 0
    for try await _ in channel {
      consumed += 1
      // Not yet consumed: at most one taken batch (≤ capacity) in the iterator, at most
      // `capacity` in the buffer, and the one a producer is handing over right now.
      #expect(pushed.load(ordering: .sequentiallyConsistent) <= consumed + 2 * 4 + 1)
      #expect(channel.bufferedCount <= 4)
    }
    #expect(consumed == 200)
  }

  @Test("a task producer suspends while full and resumes as the consumer reads")
  func taskBackpressure() async throws {
    let channel = MessageChannel<Int>(capacity: 2)
    let producer = Task {
      for i in 0..<50 { await channel.send(i) }
      channel.finish()
    }
    var seen: [Int] = []
    for try await value in channel {
      seen.append(value)
      #expect(channel.bufferedCount <= 2)
    }
    await producer.value
    #expect(seen == Array(0..<50))
  }

  @Test func errorComesAfterTheBufferedElements() async {
    let channel = MessageChannel<Int>(capacity: 8)
    channel.push(1)
    channel.push(2)
    channel.finish(throwing: Boom())
    var seen: [Int] = []
    await #expect(throws: Boom.self) {
      for try await value in channel { seen.append(value) }
    }
    #expect(seen == [1, 2])
  }

  @Test("an error reaches a consumer already waiting, once")
  func errorToWaitingConsumer() async {
    let channel = MessageChannel<Int>(capacity: 8)
    let consumer = Task { () -> Bool in
      do {
        for try await _ in channel {}
        return false
      } catch {
        return error is Boom
      }
    }
    // Whether the consumer parked first or not, the outcome must be the same.
    channel.finish(throwing: Boom())
    #expect(await consumer.value)
  }

  @Test("cancel releases a producer blocked on a full channel")
  func cancelReleasesProducer() async {
    let channel = MessageChannel<Int>(capacity: 1)
    channel.push(0)
    let released = DispatchSemaphore(value: 0)
    let result = Mutex<Bool?>(nil)
    DedicatedThread.start {
      let accepted = channel.push(1)  // blocks: the channel is full
      result.withLock { $0 = accepted }
      released.signal()
    }
    channel.cancel()
    #expect(released.wait(timeout: .now() + 30) == .success)
    #expect(result.withLock { $0 } == false)
    #expect(channel.push(2) == false)
  }

  @Test func finishWithNothingBufferedEndsAWaitingConsumer() async throws {
    let channel = MessageChannel<String>(capacity: 4)
    let consumer = Task { () -> [String] in
      var seen: [String] = []
      for try await value in channel { seen.append(value) }
      return seen
    }
    await channel.send("a")
    channel.finish()
    #expect(try await consumer.value == ["a"])
    #expect(channel.push("late") == false)
  }

  @Test("batches travel whole and in order; the consumer takes all that waits")
  func batches() async throws {
    let channel = MessageChannel<Int>(capacity: 10)
    #expect(channel.push(contentsOf: [1, 2, 3]))
    #expect(await channel.send(contentsOf: [4, 5]))
    #expect(try await channel.nextBatch() == [1, 2, 3, 4, 5])
    #expect(channel.bufferedCount == 0)
    channel.push(contentsOf: Array(6...30))  // one batch may overfill the buffer once
    #expect(channel.bufferedCount == 25)
    channel.finish()
    #expect(try await channel.nextBatch() == Array(6...30))
    #expect(try await channel.nextBatch() == nil)
  }

  @Test("forcePush ignores the capacity and never blocks")
  func forcePush() async throws {
    let channel = MessageChannel<Int>(capacity: 1)
    channel.push(1)
    #expect(channel.forcePush(2))
    #expect(channel.forcePush(3))
    #expect(try await channel.nextBatch() == [1, 2, 3])
  }
}

@Suite struct MessageChannelCostTests {
  @Test("a cost limit holds producers back before the element count does")
  func costLimit() async throws {
    let channel = MessageChannel<[UInt8]>(capacity: 100, costLimit: 1000)
    #expect(channel.push(Array(repeating: 1, count: 600), cost: 600))
    #expect(channel.push(Array(repeating: 2, count: 600), cost: 600))  // room was left: 600 < 1000
    // Now 1200 bytes wait: a task producer must wait for the consumer.
    let third = Task { await channel.send(Array(repeating: 3, count: 10), cost: 10) }
    let first = try #require(try await channel.nextBatch())
    #expect(first.map(\.count) == [600, 600])
    #expect(await third.value)
    #expect(try await channel.nextBatch()?.map(\.count) == [10])
  }

  @Test("waitUntilConsumed returns once the consumer took everything and came back for more")
  func waitUntilConsumed() async throws {
    let channel = MessageChannel<Int>(capacity: 8)
    channel.push(contentsOf: [1, 2])
    // Nobody reads yet: the wait runs out.
    #expect(!channel.waitUntilConsumed(timeout: 0.05))
    // The wait blocks its thread: one of its own, never one of the concurrency pool's few.
    async let waited = offPool { channel.waitUntilConsumed(timeout: 60) }
    #expect(try await channel.nextBatch() == [1, 2])
    // Coming back for more (and finding nothing) is what ends the wait.
    let next = Task { try await channel.nextBatch() }
    #expect(await waited)
    channel.finish()
    #expect(try await next.value == nil)
  }

  @Test("with countsBatchInHand, the batch the consumer took counts until it comes back for more")
  func batchInHandCounts() async throws {
    let channel = MessageChannel<[UInt8]>(capacity: 100, costLimit: 1000, countsBatchInHand: true)
    channel.push(Array(repeating: 1, count: 1200), cost: 1200)
    #expect(try await channel.nextBatch()?.map(\.count) == [1200])
    // Nothing waits, but the consumer is still working on 1200 bytes: no room.
    #expect(channel.bufferedCount == 0)
    #expect(!channel.hasRoom)
    async let waited = offPool { channel.waitForRoom() }
    // The producer thread is parked before the consumer comes back.
    while channel.waitingProducerCount == 0 { await Task.yield() }
    let next = Task { try await channel.nextBatch() }
    #expect(await waited)
    #expect(channel.hasRoom)
    channel.push(Array(repeating: 2, count: 10), cost: 10)
    #expect(try await next.value?.map(\.count) == [10])
  }

  @Test("without countsBatchInHand, taking a batch makes room at once")
  func batchInHandDoesNotCountByDefault() async throws {
    let channel = MessageChannel<[UInt8]>(capacity: 100, costLimit: 1000)
    channel.push(Array(repeating: 1, count: 1200), cost: 1200)
    #expect(!channel.hasRoom)
    #expect(try await channel.nextBatch()?.map(\.count) == [1200])
    #expect(channel.hasRoom)
  }

  @Test("a batch handed straight to a waiting consumer counts as in hand too")
  func directHandOverCountsInHand() async throws {
    let channel = MessageChannel<[UInt8]>(capacity: 100, costLimit: 1000, countsBatchInHand: true)
    let consumer = Task { try await channel.nextBatch() }
    // Returns once the consumer is parked, waiting: the push then hands the batch straight over.
    #expect(await offPool { channel.waitUntilConsumed(timeout: 60) })
    channel.push(Array(repeating: 1, count: 1500), cost: 1500)
    #expect(try await consumer.value?.map(\.count) == [1500])
    #expect(!channel.hasRoom)
    // Forced batches count their cost as well, and never wait.
    #expect(channel.forcePush(contentsOf: [[7]], cost: 1))
    channel.finish()
    #expect(try await channel.nextBatch()?.map(\.count) == [1])
    #expect(try await channel.nextBatch() == nil)
  }

  @Test("waitForRoom ends with false once the channel is finished or cancelled")
  func waitForRoomOnAClosedChannel() async {
    let finished = MessageChannel<Int>(capacity: 1)
    finished.push(1)
    async let released = offPool { finished.waitForRoom() }
    while finished.waitingProducerCount == 0 { await Task.yield() }
    finished.finish()
    #expect(await released == false)
    let cancelled = MessageChannel<Int>(capacity: 1)
    cancelled.push(1)
    cancelled.cancel()
    #expect(await cancelled.waitForRoom() == false)
  }

  @Test(
    "a task waiting for room returns false when it is cancelled, without the consumer",
    .timeLimit(.minutes(1)))
  func waitForRoomEndsOnCancellation() async {
    let channel = MessageChannel<Int>(capacity: 1)
    channel.push(1)
    let waiter = Task { await channel.waitForRoom() }
    while channel.waitingProducerCount == 0 { await Task.yield() }
    waiter.cancel()
    // Nobody reads the channel: only the cancellation can release the waiter. Should it stay
    // parked, the time limit cancels this test, which cancels the channel (emptying it, which
    // the count below then shows) so that the test still ends.
    let released = await withTaskCancellationHandler {
      await waiter.value
    } onCancel: {
      channel.cancel()
    }
    #expect(released == false)
    #expect(channel.bufferedCount == 1, "the cancelled task stayed parked")
    // Already cancelled: returns at once.
    let late = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await channel.waitForRoom()
    }
    #expect(await late.value == false)
    #expect(channel.waitingProducerCount == 0)
  }

  @Test("a cancelled sender still waits for room and delivers: what it carries is not lost")
  func cancelledSenderStillDelivers() async throws {
    let channel = MessageChannel<Int>(capacity: 1)
    channel.push(1)
    let sender = Task { await channel.send(2) }
    while channel.waitingProducerCount == 0 { await Task.yield() }
    sender.cancel()
    #expect(try await channel.nextBatch() == [1])
    #expect(await sender.value)
    #expect(try await channel.nextBatch() == [2])
  }

  @Test("waitUntilConsumed returns at once when the consumer is gone")
  func waitUntilConsumedAfterCancel() {
    let channel = MessageChannel<Int>(capacity: 8)
    channel.push(1)
    channel.cancel()
    #expect(channel.waitUntilConsumed(timeout: 60))
  }

  /// Waits (yielding) until the consumer is parked in `nextBatch`.
  static func parked<E: Sendable>(_ channel: MessageChannel<E>) async {
    while channel.withWaitingConsumer({ true }) == nil { await Task.yield() }
  }

  @Test("withWaitingConsumer runs its body only while the consumer is parked with nothing buffered")
  func withWaitingConsumer() async throws {
    let channel = MessageChannel<Int>(capacity: 8)
    #expect(channel.withWaitingConsumer({ 1 }) == nil)
    let consumer = Task { try await channel.nextBatch() }
    await Self.parked(channel)
    #expect(channel.withWaitingConsumer({ 2 }) == 2)
    channel.push(7)
    #expect(try await consumer.value == [7])
    channel.push(8)
    #expect(channel.withWaitingConsumer({ 3 }) == nil)
    channel.finish()
    #expect(channel.withWaitingConsumer({ 4 }) == nil)
  }

  @Test("a parked consumer's relay takes batches in order; takenWake wakes it empty, declined with the batch")
  func relay() async throws {
    let channel = MessageChannel<Int>(capacity: 8)
    let relayed = Mutex<[[Int]]>([])
    let relay: @Sendable ([Int]) -> MessageChannel<Int>.Relayed = { batch in
      relayed.withLock { $0.append(batch) }
      switch batch.first {
      case 3: return .declined
      case 5: return .takenWake
      default: return .taken
      }
    }
    let first = Task { try await channel.nextBatch(relay: relay) }
    await Self.parked(channel)
    channel.push(1)
    channel.push(contentsOf: [2, 20])
    // Relayed, not buffered: the consumer is still parked and the channel is consumed.
    #expect(channel.bufferedCount == 0)
    #expect(channel.waitUntilConsumed(timeout: 0))
    channel.push(3)
    #expect(try await first.value == [3])
    #expect(relayed.withLock { $0 } == [[1], [2, 20], [3]])
    // Without a parked consumer, batches wait in the buffer as usual.
    channel.push(4)
    #expect(try await channel.nextBatch(relay: relay) == [4])
    let second = Task { try await channel.nextBatch(relay: relay) }
    await Self.parked(channel)
    channel.push(5)
    #expect(try await second.value == [])
    #expect(relayed.withLock { $0 } == [[1], [2, 20], [3], [5]])
    let third = Task { try await channel.nextBatch(relay: relay) }
    await Self.parked(channel)
    channel.finish()
    #expect(try await third.value == nil)
    #expect(relayed.withLock { $0 }.count == 4)
  }
}

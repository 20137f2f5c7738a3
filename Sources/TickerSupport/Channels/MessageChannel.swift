import Dispatch
import Synchronization

/// A bounded, ordered, single-consumer channel with backpressure: the way messages travel from a
/// connection's reader thread to its consumer, and from a session to its user.
///
/// Unlike an unbounded `AsyncStream`, a producer that runs ahead of the consumer is held back
/// once `capacity` elements wait: a thread blocks in `push`, a task suspends in `send`. So a fast
/// server fills the socket buffers (and TCP flow control slows it down) instead of this process's
/// memory. Producers may add whole batches, and the consumer takes everything waiting at once
/// (`nextBatch()`; the iterator does the same behind the scenes), so the cost of a hand-over is
/// shared by all the elements that travel together.
///
/// `forcePush` ignores the capacity: for rare control inputs that must never wait.
///
/// With `countsBatchInHand`, the cost of the batch the consumer took last counts against
/// `costLimit` until the consumer comes back for more: the bound then covers what the consumer is
/// still working on, not only what waits (a 1 MB message being decoded keeps the next one out).
/// Iterate it once; the sequence ends after `finish()`, or throws the error given to
/// `finish(throwing:)` after the buffered elements.
public final class MessageChannel<Element: Sendable>: AsyncSequence, Sendable {
  public typealias Failure = any Error
  private typealias Consumer = CheckedContinuation<[Element]?, any Error>

  private struct State: ~Copyable {
    var buffer: [Element] = []
    /// The summed `cost` of `buffer`.
    var bufferedCost = 0
    /// With `countsBatchInHand`: the cost of the batch the consumer took last, until it comes back.
    var inHandCost = 0
    var finished = false
    var failure: (any Error)?
    /// The consumer will read no more.
    var consumerGone = false
    var waitingConsumer: Consumer?
    /// The parked consumer's relay (`nextBatch(relay:)`): producers hand batches to it.
    var relay: (@Sendable ([Element]) -> Relayed)?
    var blockedThreads = 0
    /// Tasks suspended until there is room, by the id they parked with.
    var waitingSenders: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var nextSenderID = 0
    /// Threads in `waitUntilConsumed`.
    var drainWaiters = 0
  }

  public let capacity: Int
  /// The most total cost (e.g. bytes) that may wait, besides `capacity` elements.
  public let costLimit: Int
  /// Whether the batch the consumer is working on counts against `costLimit` (see above).
  public let countsBatchInHand: Bool
  private let state: RankedMutex<State>
  /// Wakes producer threads blocked in `push` when space frees up.
  private let space = DispatchSemaphore(value: 0)
  /// Wakes threads in `waitUntilConsumed` when the consumer comes back for more (or leaves).
  private let drained = DispatchSemaphore(value: 0)

  /// - Parameters:
  ///   - capacity: the most elements that may wait before producers are held back.
  ///   - costLimit: the most total cost that may wait (e.g. bytes, so that a few large messages
  ///     count like many small ones); producers state each batch's cost. Unlimited by default.
  ///   - countsBatchInHand: whether the cost of the batch the consumer took last counts against
  ///     `costLimit` until it asks for the next.
  ///   - lockRank: the channel's lock's place in the fast path's lock order, if it is on it.
  public init(
    capacity: Int = 256, costLimit: Int = .max, countsBatchInHand: Bool = false, lockRank: LockRank? = nil
  ) {
    self.capacity = Swift.max(1, capacity)
    self.costLimit = Swift.max(1, costLimit)
    self.countsBatchInHand = countsBatchInHand
    self.state = RankedMutex(State(), rank: lockRank)
  }

  private func isFull(_ state: borrowing State) -> Bool {
    state.buffer.count >= capacity || state.bufferedCost + state.inHandCost >= costLimit
  }

  // MARK: Producing

  /// Adds an element, blocking the calling thread while the channel is full. Returns false when
  /// the channel is finished or its consumer is gone (the element is dropped: nobody will read it).
  @discardableResult
  public func push(_ element: Element, cost: Int = 0) -> Bool { push(contentsOf: [element], cost: cost) }

  /// Adds elements in order, blocking the calling thread while the channel is full (a batch is
  /// accepted whole once there is room, so the buffer holds at most capacity + one batch).
  /// `cost` is the batch's total cost (e.g. its bytes), counted against `costLimit`; the caller
  /// computes it where it is cheap (this generic type would pay for it per element).
  @discardableResult
  public func push(contentsOf elements: [Element], cost: Int = 0) -> Bool {
    guard !elements.isEmpty else { return true }
    while true {
      switch offer(elements, cost: cost, force: false, registerBlockedThread: true) {
      case .accepted: return true
      case .closed: return false
      case .full: space.wait()
      }
    }
  }

  /// Adds an element now, whatever the capacity. Never blocks.
  @discardableResult
  public func forcePush(_ element: Element) -> Bool {
    offer([element], cost: 0, force: true, registerBlockedThread: false) == .accepted
  }

  /// Adds elements now, whatever the capacity, counting their cost: for a producer that waited
  /// for room (`waitForRoom`) before it took them from its own source. Never blocks.
  /// `condition`, when given, is checked under the channel's lock: the elements go in only if it
  /// holds, so a producer can be shut out at a precise point in the sequence.
  @discardableResult
  public func forcePush(contentsOf elements: [Element], cost: Int, if condition: () -> Bool = { true })
    -> Bool
  {
    guard !elements.isEmpty else { return true }
    return offer(elements, cost: cost, force: true, registerBlockedThread: false, if: condition) == .accepted
  }

  /// Adds an element now, never blocking: when `capacity` elements already wait, or their cost
  /// and this one's would pass `costLimit`, the oldest are taken out to make room and returned
  /// (the consumer will not see them; `costOf` gives each one's cost, as `cost` gives this
  /// one's). Empty when nothing was evicted, or when the channel is closed (then `element` is
  /// dropped too). For consumers that would rather lose old elements than hold their producer
  /// back.
  public func pushEvictingOldest(_ element: Element, cost: Int, costOf: (Element) -> Int) -> [Element] {
    let (evicted, consumer): ([Element], (Consumer, [Element])?) = state.withLock { state in
      if state.finished || state.consumerGone { return ([], nil) }
      switch handToWaitingConsumer(&state, [element], cost: cost) {
      case .relayed: return ([], nil)
      case .resume(let consumer, let batch): return ([], (consumer, batch))
      case .noConsumer: break
      }
      var excess = 0
      var freed = 0
      while excess < state.buffer.count
        && (state.buffer.count - excess >= capacity
          || state.bufferedCost - freed + state.inHandCost + cost > costLimit)
      {
        freed += costOf(state.buffer[excess])
        excess += 1
      }
      let evicted = Array(state.buffer.prefix(excess))
      state.buffer.removeFirst(excess)
      state.bufferedCost -= freed
      state.buffer.append(element)
      state.bufferedCost += cost
      return (evicted, nil)
    }
    if let handed = consumer { handed.0.resume(returning: handed.1) }
    return evicted
  }

  /// Adds an element, suspending the calling task while the channel is full.
  @discardableResult
  public func send(_ element: Element, cost: Int = 0) async -> Bool {
    await send(contentsOf: [element], cost: cost)
  }

  /// Adds elements in order, suspending the calling task while the channel is full.
  @discardableResult
  public func send(contentsOf elements: [Element], cost: Int = 0) async -> Bool {
    guard !elements.isEmpty else { return true }
    while true {
      switch offer(elements, cost: cost, force: false, registerBlockedThread: false) {
      case .accepted: return true
      case .closed: return false
      case .full:
        await parkUntilRoom(cancellable: false)
      }
    }
  }

  /// Suspends the calling task until the channel has room, is finished or its consumer is gone;
  /// if `cancellable`, also until the task is cancelled (at once when it already is). A sender
  /// is not cancellable: what it carries would be lost.
  private func parkUntilRoom(cancellable: Bool) async {
    let id = state.withLock { state in
      defer { state.nextSenderID &+= 1 }
      return state.nextSenderID
    }
    let park = {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = self.state.withLock { state -> Bool in
          if !self.isFull(state) || state.finished || state.consumerGone { return true }
          if cancellable && Task.isCancelled { return true }
          state.waitingSenders.append((id, continuation))
          return false
        }
        if resumeNow { continuation.resume() }
      }
    }
    guard cancellable else { return await park() }
    await withTaskCancellationHandler(operation: park) {
      // Parked (then it is taken out and resumed here), or not yet (then it sees the
      // cancellation under the lock and does not park), or already resumed (nothing to do).
      let parked = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard let index = state.waitingSenders.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waitingSenders.remove(at: index).continuation
      }
      parked?.resume()
    }
  }

  private enum Offer { case accepted, full, closed }

  private func offer(
    _ elements: [Element], cost: Int, force: Bool, registerBlockedThread: Bool,
    if condition: () -> Bool = { true }
  ) -> Offer {
    let (outcome, consumer): (Offer, (Consumer, [Element])?) = state.withLock { state in
      if state.finished || state.consumerGone || !condition() { return (.closed, nil) }
      // A waiting consumer means an empty buffer: hand the batch over directly.
      switch handToWaitingConsumer(&state, elements, cost: cost) {
      case .relayed: return (.accepted, nil)
      case .resume(let consumer, let batch): return (.accepted, (consumer, batch))
      case .noConsumer: break
      }
      if !force && isFull(state) {
        if registerBlockedThread { state.blockedThreads += 1 }
        return (.full, nil)
      }
      state.buffer.append(contentsOf: elements)
      state.bufferedCost += cost
      return (.accepted, nil)
    }
    if let handed = consumer { handed.0.resume(returning: handed.1) }
    return outcome
  }

  private enum Handed {
    /// No consumer is parked: the batch is the buffer's.
    case noConsumer
    /// The parked consumer's relay took it, and the consumer stays parked.
    case relayed
    /// Resume the consumer (outside the lock) with this batch: the one offered, or none when its
    /// relay took it but asked for the consumer.
    case resume(Consumer, [Element])
  }

  /// Gives `elements` to the parked consumer, if there is one: to its relay, which runs here,
  /// under the lock (so batches reach it one at a time, in order, and nothing else can wake the
  /// consumer meanwhile), or else to the consumer itself.
  private func handToWaitingConsumer(_ state: inout State, _ elements: [Element], cost: Int) -> Handed {
    guard let consumer = state.waitingConsumer else { return .noConsumer }
    if let relay = state.relay {
      switch relay(elements) {
      case .taken:
        // As if the consumer took the batch and was back at once: none of it is in its hands.
        state.inHandCost = 0
        return .relayed
      case .takenWake:
        state.inHandCost = 0
        state.waitingConsumer = nil
        state.relay = nil
        return .resume(consumer, [])
      case .declined: break
      }
    }
    state.waitingConsumer = nil
    state.relay = nil
    if countsBatchInHand { state.inHandCost = cost }
    return .resume(consumer, elements)
  }

  /// Ends the sequence after the buffered elements, with `error` thrown at the end if given.
  /// Later calls do nothing.
  public func finish(throwing error: (any Error)? = nil) {
    let (consumer, senders): (Consumer?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
      guard !state.finished else { return (nil, []) }
      state.finished = true
      let consumer = state.waitingConsumer
      state.waitingConsumer = nil
      state.relay = nil
      // A waiting consumer (empty buffer) gets the end or the error now; else it comes later.
      state.failure = consumer == nil ? error : nil
      return (consumer, wakeAllProducers(&state))
    }
    for sender in senders { sender.resume() }
    if let consumer {
      if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
    }
  }

  /// The consumer will not read any more: producers stop blocking, buffered and further elements
  /// are dropped.
  public func cancel() {
    let (consumer, senders, drainWaiters): (Consumer?, [CheckedContinuation<Void, Never>], Int) =
      state.withLock { state in
        state.consumerGone = true
        state.buffer = []
        state.bufferedCost = 0
        state.inHandCost = 0
        let consumer = state.waitingConsumer
        state.waitingConsumer = nil
        state.relay = nil
        return (consumer, wakeAllProducers(&state), state.drainWaiters)
      }
    signalDrainWaiters(drainWaiters)
    for sender in senders { sender.resume() }
    consumer?.resume(returning: nil)
  }

  /// Releases every blocked thread and returns the suspended senders to resume (outside the lock).
  private func wakeAllProducers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    for _ in 0..<state.blockedThreads { space.signal() }
    state.blockedThreads = 0
    if state.waitingSenders.isEmpty { return [] }
    defer { state.waitingSenders = [] }
    return state.waitingSenders.map(\.continuation)
  }

  /// Blocks the calling (producer) thread until the consumer has taken everything buffered and is
  /// waiting for more, or is gone, or `timeout` seconds pass; true unless the time ran out.
  public func waitUntilConsumed(timeout: Double) -> Bool {
    let deadline = DispatchTime.now() + Swift.max(0, timeout)
    while true {
      let done = state.withLock { state -> Bool in
        if state.consumerGone || (state.buffer.isEmpty && state.waitingConsumer != nil) { return true }
        state.drainWaiters += 1
        return false
      }
      if done { return true }
      let woken = drained.wait(timeout: deadline) == .success
      state.withLock { $0.drainWaiters -= 1 }
      if !woken { return false }
    }
  }

  /// Blocks the calling (producer) thread while the channel is full: e.g. a reader that should not
  /// read more before there is room for what it reads. False when the channel is closed.
  @discardableResult
  public func waitForRoom() -> Bool {
    while true {
      let outcome = state.withLock { state -> Offer in
        if state.finished || state.consumerGone { return .closed }
        if !isFull(state) { return .accepted }
        state.blockedThreads += 1
        return .full
      }
      switch outcome {
      case .accepted: return true
      case .closed: return false
      case .full: space.wait()
      }
    }
  }

  /// Suspends the calling task while the channel is full. False when the channel is closed, and
  /// when the task is cancelled while it waits (it then returns at once: it carries nothing that
  /// would be lost, and a cancelled reader should not stay parked until the consumer catches up).
  @discardableResult
  public func waitForRoom() async -> Bool {
    while true {
      let outcome = state.withLock { state -> Offer in
        if state.finished || state.consumerGone { return .closed }
        return isFull(state) ? .full : .accepted
      }
      switch outcome {
      case .accepted: return true
      case .closed: return false
      case .full:
        if Task.isCancelled { return false }
        await parkUntilRoom(cancellable: true)
      }
    }
  }

  /// Wakes the threads in `waitUntilConsumed` (call outside the lock).
  private func signalDrainWaiters(_ count: Int) {
    for _ in 0..<count { drained.signal() }
  }

  // MARK: Consuming

  /// Runs `body` under the channel's lock if the consumer is parked waiting for elements (then
  /// nothing is buffered, and nothing but this channel's producers, `finish()` or `cancel()` can
  /// wake it, none of which gets the lock before `body` returns); nil, without running it,
  /// otherwise. For a producer that can sometimes do the consumer's work itself, cheaper than
  /// waking it: whatever `body` did, the consumer sees once it is resumed. `body` must be short,
  /// must not block and must not use this channel.
  public func withWaitingConsumer<R: Sendable>(_ body: () -> R) -> R? {
    state.withLock { state in
      guard state.waitingConsumer != nil, !state.finished, !state.consumerGone else { return nil }
      return body()
    }
  }

  /// Whether a producer could add a batch now without waiting.
  public var hasRoom: Bool { state.withLock { !isFull($0) } }

  /// Producers waiting for room: threads blocked in `push` or `waitForRoom`, tasks suspended in
  /// `send` or `waitForRoom`.
  public var waitingProducerCount: Int { state.withLock { $0.blockedThreads + $0.waitingSenders.count } }

  /// Elements waiting to be read.
  public var bufferedCount: Int { state.withLock { $0.buffer.count } }

  private enum Take {
    case batch([Element])
    case end
    case failure(any Error)
    case empty
  }

  /// Takes everything buffered, the end, or the failure; `.empty` when the consumer must wait.
  /// Taking frees the whole buffer, so every blocked producer may try again. The consumer is
  /// back, so the batch it had is done with.
  private func take(_ state: inout State) -> (Take, [CheckedContinuation<Void, Never>]) {
    let released = state.inHandCost > 0
    state.inHandCost = 0
    if !state.buffer.isEmpty {
      var batch: [Element] = []
      swap(&batch, &state.buffer)
      if countsBatchInHand { state.inHandCost = state.bufferedCost }
      state.bufferedCost = 0
      state.buffer.reserveCapacity(Swift.min(batch.count, capacity))
      return (.batch(batch), wakeAllProducers(&state))
    }
    if released && !state.finished && !state.consumerGone {
      // Nothing waits, and the batch in hand no longer counts: producers may go on.
      return (.empty, wakeAllProducers(&state))
    }
    if state.finished {
      guard let failure = state.failure else { return (.end, []) }
      state.failure = nil
      return (.failure(failure), [])
    }
    return (state.consumerGone ? .end : .empty, [])
  }

  /// Everything buffered (at least one element, waiting if none is there yet), or nil at the
  /// end; throws the `finish(throwing:)` error after the last element.
  public func nextBatch() async throws -> [Element]? { try await nextBatch(relay: nil) }

  /// What a relay (`nextBatch(relay:)`) did with a batch.
  public enum Relayed: Sendable {
    /// Took it; the consumer stays parked.
    case taken
    /// Took it, and the consumer must run: it is resumed with an empty batch.
    case takenWake
    /// Left it to the consumer, which is resumed with it.
    case declined
  }

  /// As `nextBatch()`, but while the consumer is parked, producers give each batch to `relay` on
  /// their own thread, under the channel's lock, one at a time and in order, instead of resuming
  /// the consumer: for a consumer whose wake-up would cost more than the work a batch needs. The
  /// consumer sees whatever the relay did once it is resumed. The relay must be short, must not
  /// block and must not use this channel (its lock is held).
  public func nextBatch(relay: (@Sendable ([Element]) -> Relayed)?) async throws -> [Element]? {
    // Fast path: elements are waiting (no suspension, one lock).
    let (now, senders) = state.withLock { take(&$0) }
    for sender in senders { sender.resume() }
    switch now {
    case .batch(let batch): return batch
    case .end: return nil
    case .failure(let error): throw error
    case .empty: break
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: Consumer) in
        let (now, senders, drainWaiters) = state.withLock {
          state -> (Take, [CheckedContinuation<Void, Never>], Int) in
          let taken = take(&state)
          guard case .empty = taken.0 else { return (taken.0, taken.1, 0) }
          state.waitingConsumer = continuation
          state.relay = relay
          return (taken.0, taken.1, state.drainWaiters)
        }
        signalDrainWaiters(drainWaiters)
        for sender in senders { sender.resume() }
        switch now {
        case .batch(let batch): continuation.resume(returning: batch)
        case .end: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(throwing: error)
        case .empty: break  // parked: a producer, finish() or cancel() resumes it
        }
      }
    } onCancel: {
      cancel()
    }
  }

  /// Hands out the elements of each batch one by one.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let channel: MessageChannel
    var pending: [Element] = []
    var index = 0

    public mutating func next() async throws -> Element? {
      if index < pending.count {
        defer { index += 1 }
        return pending[index]
      }
      guard let batch = try await channel.nextBatch() else { return nil }
      pending = batch
      index = 1
      return batch[0]
    }
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}

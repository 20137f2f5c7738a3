import Dispatch
import Synchronization

/// A bounded, ordered, single-consumer channel with backpressure: the way messages travel from a
/// connection's reader thread to its consumer, and from a session to its user.
///
/// Unlike an unbounded `AsyncStream`, a producer that runs ahead of the consumer is held back
/// once `capacity` elements wait: a thread blocks in `push(_:)`, a task suspends in `send(_:)`.
/// So a fast server fills the socket buffers (and TCP flow control slows it down) instead of
/// this process's memory. A consumer that is already waiting gets the element handed over
/// directly. Iterate it once; the sequence ends after `finish()`, or throws the error given to
/// `finish(throwing:)` after the buffered elements.
public final class MessageChannel<Element: Sendable>: AsyncSequence, Sendable {
  public typealias Failure = any Error

  private struct State: ~Copyable {
    var buffer: [Element] = []
    var head = 0
    var finished = false
    var failure: (any Error)?
    /// The consumer (no consumer means the buffer is drained by nobody).
    var consumerGone = false
    var waitingConsumer: CheckedContinuation<Element?, any Error>?
    var blockedThreads = 0
    var waitingSenders: [CheckedContinuation<Void, Never>] = []

    var count: Int { buffer.count - head }

    mutating func popFirst() -> Element? {
      guard head < buffer.count else { return nil }
      let element = buffer[head]
      head += 1
      if head >= 1024 && head * 2 >= buffer.count {
        buffer.removeFirst(head)
        head = 0
      }
      return element
    }
  }

  public let capacity: Int
  private let state: Mutex<State>
  /// Wakes producer threads blocked in `push` when space frees up.
  private let space = DispatchSemaphore(value: 0)

  public init(capacity: Int = 256) {
    self.capacity = Swift.max(1, capacity)
    self.state = Mutex(State())
  }

  // MARK: Producing

  /// Adds an element, blocking the calling thread while the channel is full. Returns false when
  /// the channel is finished or its consumer is gone (the element is dropped: nobody will read it).
  @discardableResult
  public func push(_ element: Element) -> Bool {
    while true {
      switch offer(element, registerBlockedThread: true) {
      case .accepted: return true
      case .closed: return false
      case .full: space.wait()
      }
    }
  }

  /// Adds an element, suspending the calling task while the channel is full. Returns false when
  /// the channel is finished or its consumer is gone.
  @discardableResult
  public func send(_ element: Element) async -> Bool {
    while true {
      switch offer(element, registerBlockedThread: false) {
      case .accepted: return true
      case .closed: return false
      case .full:
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let resumeNow = state.withLock { state -> Bool in
            if state.count < capacity || state.finished || state.consumerGone { return true }
            state.waitingSenders.append(continuation)
            return false
          }
          if resumeNow { continuation.resume() }
        }
      }
    }
  }

  private enum Offer { case accepted, full, closed }

  private func offer(_ element: Element, registerBlockedThread: Bool) -> Offer {
    let (outcome, consumer): (Offer, CheckedContinuation<Element?, any Error>?) = state.withLock { state in
      if state.finished || state.consumerGone { return (.closed, nil) }
      if let consumer = state.waitingConsumer {
        state.waitingConsumer = nil
        return (.accepted, consumer)
      }
      if state.count >= capacity {
        if registerBlockedThread { state.blockedThreads += 1 }
        return (.full, nil)
      }
      state.buffer.append(element)
      return (.accepted, nil)
    }
    consumer?.resume(returning: element)
    return outcome
  }

  /// Ends the sequence after the buffered elements, with `error` thrown at the end if given.
  /// Later calls do nothing.
  public func finish(throwing error: (any Error)? = nil) {
    typealias Wakeups = (
      consumer: CheckedContinuation<Element?, any Error>?, senders: [CheckedContinuation<Void, Never>]
    )
    let wake: Wakeups = state.withLock { state in
      guard !state.finished else { return (nil, []) }
      state.finished = true
      // A waiting consumer means an empty buffer: it gets the end (or the error) now.
      let consumer = state.waitingConsumer
      state.waitingConsumer = nil
      state.failure = consumer == nil ? error : nil
      return (consumer, wakeAllProducers(&state))
    }
    for sender in wake.senders { sender.resume() }
    if let consumer = wake.consumer {
      if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
    }
  }

  /// The consumer will not read any more: producers stop blocking, further elements are dropped.
  public func cancel() {
    let senders = state.withLock { state in
      state.consumerGone = true
      state.buffer = []
      state.head = 0
      return wakeAllProducers(&state)
    }
    for sender in senders { sender.resume() }
  }

  /// Releases every blocked thread and returns the suspended senders to resume (outside the lock).
  private func wakeAllProducers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    for _ in 0..<state.blockedThreads { space.signal() }
    state.blockedThreads = 0
    defer { state.waitingSenders = [] }
    return state.waitingSenders
  }

  // MARK: Consuming

  /// Elements waiting to be read.
  public var bufferedCount: Int { state.withLock { $0.count } }

  private enum Take {
    case element(Element)
    case end
    case failure(any Error)
    case empty
  }

  /// Takes the next element, the end, or the failure; `.empty` when the consumer must wait.
  private func take(_ state: inout State) -> Take {
    if let element = state.popFirst() {
      releaseOneProducer(&state)
      return .element(element)
    }
    if state.finished {
      guard let failure = state.failure else { return .end }
      state.failure = nil
      return .failure(failure)
    }
    return state.consumerGone ? .end : .empty
  }

  fileprivate func next() async throws -> Element? {
    // Fast path: an element is waiting (no suspension, one lock).
    switch state.withLock({ take(&$0) }) {
    case .element(let element): return element
    case .end: return nil
    case .failure(let error): throw error
    case .empty: break
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
        let now = state.withLock { state -> Take in
          let now = take(&state)
          if case .empty = now { state.waitingConsumer = continuation }
          return now
        }
        switch now {
        case .element(let element): continuation.resume(returning: element)
        case .end: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(throwing: error)
        case .empty: break  // parked: a producer or finish() resumes it
        }
      }
    } onCancel: {
      let consumer = state.withLock { state in
        defer { state.waitingConsumer = nil }
        return state.waitingConsumer
      }
      consumer?.resume(returning: nil)
      cancel()
    }
  }

  /// After an element left the buffer: let one blocked producer (thread or task) try again.
  private func releaseOneProducer(_ state: inout State) {
    if state.blockedThreads > 0 {
      state.blockedThreads -= 1
      space.signal()
    } else if !state.waitingSenders.isEmpty {
      let sender = state.waitingSenders.removeFirst()
      // Resuming inside the lock is safe for a Void continuation that does not re-enter.
      sender.resume()
    }
  }

  public struct AsyncIterator: AsyncIteratorProtocol {
    let channel: MessageChannel
    public mutating func next() async throws -> Element? { try await channel.next() }
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}

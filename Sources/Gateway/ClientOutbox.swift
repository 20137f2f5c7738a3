import Dispatch
import Synchronization
import WebSocketWire

/// One `serve` client's queue of frames to send, bounded in messages and bytes: the hub offers
/// without ever waiting (a full queue is the client's problem: it is dropped), and the client's
/// writer thread takes everything waiting at once, blocking while there is nothing. A close
/// ends the queue: nothing offered after it is sent.
final class ClientOutbox: Sendable {
  enum Item: Sendable {
    case frame([UInt8])
    case close(CloseStatus)
  }

  let capacity: Int
  let byteLimit: Int
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  private struct State: Sendable {
    var items: [Item] = []
    var bytes = 0
    /// A close is queued (or sent): nothing more is accepted.
    var closing = false
    /// The writer should stop once the queue is empty.
    var finished = false
    var writerWaiting = false
  }

  init(capacity: Int, byteLimit: Int) {
    self.capacity = capacity
    self.byteLimit = byteLimit
  }

  enum Offer: Sendable, Equatable {
    case queued
    /// The queue is full: the client is too slow.
    case full
    /// The client is closing: the frame was dropped.
    case closing
  }

  func offer(_ frame: [UInt8]) -> Offer {
    let (offer, wakeWriter) = state.withLock { state -> (Offer, Bool) in
      if state.closing || state.finished { return (.closing, false) }
      guard state.items.count < capacity, state.bytes + frame.count <= byteLimit else {
        return (.full, false)
      }
      state.items.append(.frame(frame))
      state.bytes += frame.count
      return (.queued, takeWaiter(&state))
    }
    if wakeWriter { wake.signal() }
    return offer
  }

  /// Queues a close; with `discarding`, what waits before it is dropped (a client too slow for
  /// it). False when a close was queued before.
  @discardableResult
  func close(_ status: CloseStatus, discarding: Bool) -> Bool {
    let (queued, wakeWriter) = state.withLock { state -> (Bool, Bool) in
      if state.closing || state.finished { return (false, false) }
      state.closing = true
      if discarding {
        state.items.removeAll()
        state.bytes = 0
      }
      state.items.append(.close(status))
      return (true, takeWaiter(&state))
    }
    if wakeWriter { wake.signal() }
    return queued
  }

  /// The writer stops after what is queued.
  func finish() {
    let wakeWriter = state.withLock { state -> Bool in
      state.finished = true
      return takeWaiter(&state)
    }
    if wakeWriter { wake.signal() }
  }

  /// Everything queued (waiting while there is nothing), or nil once finished and empty.
  func take() -> [Item]? {
    while true {
      let taken = state.withLock { state -> [Item]?? in
        if !state.items.isEmpty {
          defer {
            state.items = []
            state.bytes = 0
          }
          return .some(state.items)
        }
        if state.finished { return .some(nil) }
        state.writerWaiting = true
        return nil
      }
      if let taken { return taken }
      wake.wait()
    }
  }

  /// Frames waiting.
  var count: Int { state.withLock { $0.items.count } }

  /// Whether the writer is blocked in `take()`, waiting for a frame.
  var writerIsWaiting: Bool { state.withLock { $0.writerWaiting } }

  private func takeWaiter(_ state: inout State) -> Bool {
    guard state.writerWaiting else { return false }
    state.writerWaiting = false
    return true
  }
}

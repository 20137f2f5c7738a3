import Synchronization
import WebSocketWire

/// One `serve` client's queue of frames to send, bounded in messages and bytes: the hub offers
/// without ever waiting (a full queue is the client's problem: it is dropped), and the event
/// loop takes everything waiting at once when the socket has room. A close ends the queue:
/// nothing offered after it is sent.
final class ClientOutbox: Sendable {
  enum Item: Sendable {
    case frame([UInt8])
    case close(CloseStatus)
  }

  let capacity: Int
  let byteLimit: Int
  private let state = Mutex(State())

  private struct State: Sendable {
    var items: [Item] = []
    var bytes = 0
    /// A close is queued (or sent): nothing more is accepted.
    var closing = false
    /// Nothing more is taken once the queue is empty.
    var finished = false
    /// The loop was asked to take what waits, and has not yet.
    var flushAsked = false
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

  /// Queues `frame`; `askFlush` is true when the loop must be told (the first item since it
  /// last took).
  func offer(_ frame: [UInt8]) -> (offer: Offer, askFlush: Bool) {
    state.withLock { state in
      if state.closing || state.finished { return (.closing, false) }
      guard state.items.count < capacity, state.bytes + frame.count <= byteLimit else {
        return (.full, false)
      }
      state.items.append(.frame(frame))
      state.bytes += frame.count
      return (.queued, Self.askFlush(&state))
    }
  }

  /// Queues a close; with `discarding`, what waits before it is dropped (a client too slow for
  /// it). `queued` is false when a close was queued before.
  func close(_ status: CloseStatus, discarding: Bool) -> (queued: Bool, askFlush: Bool) {
    state.withLock { state in
      if state.closing || state.finished { return (false, false) }
      state.closing = true
      if discarding {
        state.items.removeAll()
        state.bytes = 0
      }
      state.items.append(.close(status))
      return (true, Self.askFlush(&state))
    }
  }

  /// Nothing is taken after what is queued now.
  func finish() { state.withLock { $0.finished = true } }

  /// Everything queued (empty when nothing is), or nil once finished and empty.
  func take() -> [Item]? {
    state.withLock { state in
      state.flushAsked = false
      if state.items.isEmpty { return state.finished ? nil : [] }
      defer {
        state.items = []
        state.bytes = 0
      }
      return state.items
    }
  }

  /// Frames waiting.
  var count: Int { state.withLock { $0.items.count } }

  private static func askFlush(_ state: inout State) -> Bool {
    guard !state.flushAsked else { return false }
    state.flushAsked = true
    return true
  }
}

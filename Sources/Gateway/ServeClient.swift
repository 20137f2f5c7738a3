import Dispatch
import Synchronization
import WebSocketWire

/// One upgraded `serve` client as the threads outside the event loop see it: its bounded outbox
/// and how the server ends it (a close frame, then the connection dropped if the client does not
/// answer within the close grace). The socket itself is the loop's alone.
final class ServeClient: Sendable {
  let id: Int
  let outbox: ClientOutbox
  /// Tells the loop that the outbox has something, or that the server closed the client.
  private let notify: @Sendable (ServeLoop.Command) -> Void
  /// Why the server ended the connection, once it did (for the status line).
  private let ending = Mutex<(status: CloseStatus, why: String)?>(nil)
  /// Signalled once the loop wrote the close frame or let the socket go.
  private let writerDone = DispatchSemaphore(value: 0)
  private let stoppedWriting = Atomic(false)

  init(id: Int, outbox: ClientOutbox, notify: @escaping @Sendable (ServeLoop.Command) -> Void) {
    self.id = id
    self.outbox = outbox
    self.notify = notify
  }

  /// Queues a text message; `.full` when the client is too slow for it.
  @discardableResult
  func send(_ text: String) -> ClientOutbox.Offer {
    send(frame: FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(text.utf8))))
  }

  func send(frame bytes: [UInt8]) -> ClientOutbox.Offer {
    let (offer, askFlush) = outbox.offer(bytes)
    if askFlush { notify(.flush(id)) }
    return offer
  }

  /// The server ends the connection: a close frame after what is queued (or instead of it, with
  /// `discarding`), then the connection is dropped unless the client answered by then. Only the
  /// first call counts; false for the others.
  @discardableResult
  func close(_ status: CloseStatus, why: String, discarding: Bool = false) -> Bool {
    let first = ending.withLock { ending -> Bool in
      guard ending == nil else { return false }
      ending = (status, why)
      return true
    }
    guard first else { return false }
    _ = outbox.close(status, discarding: discarding)
    notify(.serverClosed(id))
    return true
  }

  /// Why the server ended it, if it did.
  var serverEnding: (status: CloseStatus, why: String)? { ending.withLock { $0 } }

  /// The loop is done writing to it (called once or more, on the loop's thread).
  func writerStopped() {
    if !stoppedWriting.exchange(true, ordering: .acquiringAndReleasing) { writerDone.signal() }
  }

  /// Waits (bounded) until the loop is done writing to it.
  func waitForWriter(seconds: Double) -> Bool {
    guard writerDone.wait(timeout: .now() + seconds) == .success else { return false }
    writerDone.signal()
    return true
  }
}

import Dispatch
import Synchronization
import TickerSupport
import Transport
import WebSocketServer
import WebSocketWire

/// One upgraded `serve` client: its bounded outbox and the writer thread that empties it into the
/// socket, and how the server ends it (a close frame, then the connection dropped if the client
/// does not answer within `closeGrace` seconds).
final class ServeClient: Sendable {
  let id: Int
  let writer: ServerFrameWriter
  let outbox: ClientOutbox
  private let stream: TCPStream
  private let writerDone = DispatchSemaphore(value: 0)
  /// Why the server ended the connection, once it did (for the status line).
  private let ending = Mutex<(status: CloseStatus, why: String)?>(nil)
  private let closeGrace: Double
  /// Stopping once the server closed it; finished once the reader is done with it.
  let lifetime = ConnectionLifetime()

  init(id: Int, stream: TCPStream, writer: ServerFrameWriter, outbox: ClientOutbox, closeGrace: Double) {
    self.id = id
    self.stream = stream
    self.writer = writer
    self.outbox = outbox
    self.closeGrace = closeGrace
  }

  /// Starts the writer thread.
  func startWriter() {
    DedicatedThread.start { [self] in
      defer { writerDone.signal() }
      while let items = outbox.take() {
        for item in items {
          switch item {
          case .frame(let bytes):
            do {
              try writer.write(bytes)
            } catch {
              stream.shutdown()
              return
            }
          case .close(let status):
            try? writer.sendClose(status)
            return
          }
        }
      }
    }
  }

  /// Queues a text message; `.full` when the client is too slow for it.
  func send(_ text: String) -> ClientOutbox.Offer {
    send(frame: FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(text.utf8))))
  }

  func send(frame bytes: [UInt8]) -> ClientOutbox.Offer { outbox.offer(bytes) }

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
    outbox.close(status, discarding: discarding)
    lifetime.stop()
    // A client that does not answer the close in time is dropped.
    let (stream, lifetime, grace) = (self.stream, self.lifetime, closeGrace)
    DispatchQueue(label: "serve.client.close").async {
      if !lifetime.waitForEnd(seconds: grace) { stream.shutdown() }
    }
    return true
  }

  /// Why the server ended it, if it did.
  var serverEnding: (status: CloseStatus, why: String)? { ending.withLock { $0 } }

  /// After the reader ended: stops the writer (after what is queued, bounded by `seconds`),
  /// then releases the socket.
  func finish(waiting seconds: Double) {
    outbox.finish()
    if writerDone.wait(timeout: .now() + seconds) == .timedOut {
      stream.shutdown()
      writerDone.wait()
    }
    writerDone.signal()
    lifetime.finish()
    stream.close()
  }

  /// Waits (bounded) until the writer has stopped.
  func waitForWriter(seconds: Double) -> Bool {
    guard writerDone.wait(timeout: .now() + seconds) == .success else { return false }
    writerDone.signal()
    return true
  }
}

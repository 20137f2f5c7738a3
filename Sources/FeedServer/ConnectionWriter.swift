import Synchronization
import WebSocketClient

/// The sending side of one `FeedServer` connection: whole writes under one lock (so frames from
/// different threads never interleave), at most one close frame, and the way out without one.
final class ConnectionWriter: Sendable {
  private let stream: TCPStream
  private let writeLock = Mutex(())
  private let closeSent = Atomic(false)

  init(stream: TCPStream) { self.stream = stream }

  /// Whether a close frame has gone out.
  var hasSentClose: Bool { closeSent.load(ordering: .acquiring) }

  /// Sends a close frame unless one was sent before; `first` runs (before the write, so that
  /// whoever sees the close also sees its effects) only when this call sends it.
  func sendClose(_ status: CloseStatus, first: () -> Void = {}) throws(TransportError) {
    guard !closeSent.exchange(true, ordering: .acquiringAndReleasing) else { return }
    first()
    try send(Frame.close(status))
  }

  func send(_ frame: Frame) throws(TransportError) {
    try write(FrameEncoder.encodeServerFrame(frame))
  }

  func write(_ bytes: [UInt8]) throws(TransportError) {
    try writeLock.withLock { _ throws(TransportError) in try stream.write(bytes, timeout: 10) }
  }

  /// Drops the TCP connection without a close frame (every blocked read and write returns).
  func drop() { stream.shutdown() }
}

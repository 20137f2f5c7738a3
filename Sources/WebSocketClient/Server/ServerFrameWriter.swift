import Synchronization

/// The sending side of one accepted connection: whole writes under one lock (so frames from
/// different threads never interleave), at most one close frame, and the way out without one.
public final class ServerFrameWriter: Sendable {
  private let stream: TCPStream
  private let writeLock = Mutex(())
  private let closeSent = Atomic(false)
  /// Seconds one write may wait for the client to make room before it fails.
  public let writeTimeout: Double

  public init(stream: TCPStream, writeTimeout: Double = 10) {
    self.stream = stream
    self.writeTimeout = writeTimeout
  }

  /// Whether a close frame has gone out.
  public var hasSentClose: Bool { closeSent.load(ordering: .acquiring) }

  /// Sends a close frame unless one was sent before; `first` runs (before the write, so that
  /// whoever sees the close also sees its effects) only when this call sends it.
  public func sendClose(_ status: CloseStatus, first: () -> Void = {}) throws(TransportError) {
    guard !closeSent.exchange(true, ordering: .acquiringAndReleasing) else { return }
    first()
    try send(Frame.close(status))
  }

  public func send(_ frame: Frame) throws(TransportError) {
    try write(FrameEncoder.encodeServerFrame(frame))
  }

  /// Writes bytes as they are (already encoded frames, or an HTTP response).
  public func write(_ bytes: [UInt8]) throws(TransportError) {
    try writeLock.withLock { _ throws(TransportError) in try stream.write(bytes, timeout: writeTimeout) }
  }

  /// Drops the TCP connection without a close frame (every blocked read and write returns).
  public func drop() { stream.shutdown() }
}

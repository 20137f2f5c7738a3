import Synchronization
import Transport
import WebSocketWire

/// The sending side of one accepted connection: whole writes under one lock (so frames from
/// different threads never interleave), at most one close frame, and the way out without one.
///
/// Once the handshake agreed on permessage-deflate (`compress(under:)`), data frames sent with
/// `send` are compressed when that makes them smaller (RSV1 set), in the order they are written
/// (the compressor works under the write lock, so its window is the client's).
public final class ServerFrameWriter: Sendable {
  private let stream: TCPStream
  /// Held for each whole write; holds the compressor when permessage-deflate was agreed.
  private let writeLock = Mutex<MessageCompressor?>(nil)
  private let agreement = Mutex<PerMessageDeflate?>(nil)
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

  /// The permessage-deflate agreed (from the server's point of view), once `compress(under:)`
  /// was called.
  public var deflate: PerMessageDeflate? { agreement.withLock { $0 } }

  /// Compresses the data frames `send` writes from now on, under `agreed` (the handshake's
  /// agreement from the server's point of view). Call once, after the 101 and before any frame.
  public func compress(under agreed: PerMessageDeflate) {
    agreement.withLock { $0 = agreed }
    writeLock.withLock { $0 = MessageCompressor(agreed: agreed) }
  }

  /// Sends `frame`: with permessage-deflate agreed, a data frame is compressed when that makes
  /// it smaller. True when it went out compressed.
  @discardableResult
  public func send(_ frame: Frame) throws(TransportError) -> Bool {
    try writeLock.withLock { compressor throws(TransportError) -> Bool in
      let sent = compressor?.encode(frame) ?? frame
      try stream.write(FrameEncoder.encodeServerFrame(sent), timeout: writeTimeout)
      return sent.rsv != frame.rsv
    }
  }

  /// Writes bytes as they are (already encoded frames, or an HTTP response). With
  /// permessage-deflate agreed, they may hold messages compressed elsewhere (by a deflater that
  /// started afresh, e.g. `PrecompressedFrames`): the compressor then forgets its window, so that
  /// the next message `send` compresses refers to nothing the client's window no longer holds
  /// at the same distance.
  public func write(_ bytes: [UInt8]) throws(TransportError) {
    try writeLock.withLock { compressor throws(TransportError) in
      try stream.write(bytes, timeout: writeTimeout)
      compressor?.reset()
    }
  }

  /// Drops the TCP connection without a close frame (every blocked read and write returns).
  public func drop() { stream.shutdown() }
}

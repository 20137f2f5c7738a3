import Transport
import WebSocketWire

/// Reads one accepted connection's client frames (on the caller's thread) until the client
/// closes, breaks the protocol, the connection ends, or the handler stops it: frames are parsed
/// (masked, as clients must send them) and reassembled within the size limits, pings are
/// answered with pongs and a close with a close (the close handshake), and every event goes to
/// the handler in order.
public struct ClientFrameReader: Sendable {
  public let input: ServerInput
  public let writer: ServerFrameWriter
  /// The largest frame and message accepted (bigger: `.protocolError(.messageTooLarge)`).
  public let maximumMessageSize: Int
  /// The permessage-deflate agreed (the server's view), if any: compressed client messages are
  /// inflated (and the limit applies to the inflated bytes).
  public let inflation: PerMessageDeflate?

  /// How reading ended.
  public enum Ending: Sendable, Equatable {
    /// The client's close frame (nil: it carried no status), answered with a close.
    case clientClosed(CloseStatus?)
    /// The client broke the protocol or a limit; nothing was sent: the caller closes with
    /// `error.closeCode` (after any message of its own).
    case protocolError(FrameError)
    /// The handler, or `beforeRead`, said to stop.
    case stopped
    /// End of stream, a failed read or write, or the connection was shut down.
    case connectionEnded
  }

  public init(
    input: ServerInput, writer: ServerFrameWriter, maximumMessageSize: Int,
    inflation: PerMessageDeflate? = nil
  ) {
    self.input = input
    self.writer = writer
    self.maximumMessageSize = maximumMessageSize
    self.inflation = inflation
  }

  /// - Parameters:
  ///   - initial: bytes that followed the upgrade request (already frames).
  ///   - ignoring: while true, events are read and dropped unanswered (a half-open peer).
  ///   - draining: while true (this side has closed the connection, or decided to), events are
  ///     read and dropped unanswered, a `handle` that says stop does not stop the reading, and the
  ///     client's close frame ends it. Closing a socket with unread bytes resets the connection,
  ///     and the client may lose what it had not read yet (the close frame and its reason); RFC
  ///     6455 §7.1.1 has the server wait for the client's close instead.
  ///   - beforeRead: asked before each blocking read; false stops reading.
  ///   - handle: each event (after a ping's pong went out; before a close is answered); false
  ///     stops reading.
  public func run(
    initial: [UInt8], ignoring: () -> Bool = { false }, draining: () -> Bool = { false },
    beforeRead: () -> Bool = { true },
    handle: (MessageAssembler.Event) throws(TransportError) -> Bool
  ) -> Ending {
    var parser = FrameParser(
      role: .server, maximumFrameSize: maximumMessageSize, allowsCompression: inflation != nil)
    var assembler = MessageAssembler(maximumMessageSize: maximumMessageSize, inflation: inflation)
    parser.append(initial)
    while true {
      do throws(FrameError) {
        while let frame = try parser.next() {
          guard let event = try assembler.receive(frame) else { continue }
          if draining() {
            if case .close(let status) = event { return .clientClosed(status) }
            continue
          }
          if ignoring() { continue }
          if case .ping(let payload) = event {
            do {
              try writer.send(Frame(opcode: .pong, payload: payload))
            } catch {
              return .connectionEnded
            }
          }
          let goOn: Bool
          do {
            goOn = try handle(event)
          } catch {
            return .connectionEnded
          }
          if case .close(let status) = event {
            try? writer.sendClose(status ?? CloseStatus(code: .normalClosure))
            return .clientClosed(status)
          }
          guard goOn || draining() else { return .stopped }
        }
      } catch {
        return .protocolError(error)
      }
      guard beforeRead() else { return .stopped }
      guard let bytes = input.read(timeout: nil), !bytes.isEmpty else { return .connectionEnded }
      parser.append(bytes)
    }
  }
}

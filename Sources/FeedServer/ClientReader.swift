import WebSocketClient

/// Reads one connection's client frames (on a thread of its own) until the client closes, the
/// connection fails or it ends: records what the client sent, answers pings, answers a close
/// and a protocol error with a close, and hands every message to the venue.
struct ClientReader {
  let input: ConnectionInput
  let writer: ConnectionWriter
  let life: ConnectionLife
  let session: VenueSession
  unowned let server: FeedServer

  func run(initial: [UInt8]) {
    var parser = FrameParser(role: .server, maximumFrameSize: 1 << 20)
    var assembler = MessageAssembler(maximumMessageSize: 1 << 20)
    parser.append(initial)
    defer { life.finish() }
    while true {
      do {
        while let frame = try parser.next() {
          guard let event = try assembler.receive(frame) else { continue }
          if life.isUnresponsive { continue }
          guard try handle(event) else { return }
        }
      } catch let error as FrameError {
        let status = CloseStatus(code: error.closeCode, reason: "\(error)")
        try? writer.sendClose(status) { server.update { $0.serverCloses.append(status) } }
        return
      } catch {
        return
      }
      if life.stopsReading {
        life.waitForEnd(seconds: nil)
        return
      }
      guard let bytes = input.read(timeout: nil), !bytes.isEmpty else { return }
      parser.append(bytes)
    }
  }

  /// False once the client has closed.
  private func handle(_ event: MessageAssembler.Event) throws(TransportError) -> Bool {
    switch event {
    case .message(.text(let text)):
      server.update { $0.clientMessages.append(text) }
      session.receive(.text(text))
    case .message(.binary(let bytes)):
      server.update { $0.clientBinaryMessages.append(bytes) }
      session.receive(.binary(bytes))
    case .ping(let payload):
      try writer.send(Frame(opcode: .pong, payload: payload))
      session.receive(.ping(payload))
    case .pong(let payload):
      server.update { $0.clientPongs.append(payload) }
      session.receive(.pong(payload))
    case .close(let status):
      server.update { $0.clientCloses.append(status) }
      try? writer.sendClose(status ?? CloseStatus(code: .normalClosure))
      return false
    }
    return true
  }
}

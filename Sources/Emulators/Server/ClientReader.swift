import WebSocketServer
import WebSocketWire

/// Reads one connection's client frames (on a thread of its own, through the shared
/// `ClientFrameReader`) until the client closes, the connection fails or it ends: records what
/// the client sent, answers a protocol error with a close, and hands every message to the venue.
/// Pings are answered and a close is answered by the shared reader. With permessage-deflate
/// agreed, compressed client messages are inflated.
struct ClientReader {
  let input: ServerInput
  let writer: ServerFrameWriter
  let life: ConnectionLife
  let session: VenueSession
  let server: FeedServer

  func run(initial: [UInt8]) {
    defer { life.finish() }
    let reader = ClientFrameReader(
      input: input, writer: writer, maximumMessageSize: 1 << 20, inflation: writer.deflate)
    let ending = reader.run(
      initial: initial, ignoring: { life.isUnresponsive },
      beforeRead: {
        guard life.stopsReading else { return true }
        life.waitForEnd(seconds: nil)
        return false
      },
      handle: handle)
    if case .protocolError(let error) = ending {
      let status = CloseStatus(code: error.closeCode, reason: "\(error)")
      try? writer.sendClose(status) { server.update { $0.serverCloses.append(status) } }
    }
  }

  private func handle(_ event: MessageAssembler.Event) -> Bool {
    switch event {
    case .message(.text(let text)):
      server.update { $0.clientMessages.append(text) }
      session.receive(.text(text))
    case .message(.binary(let bytes)):
      server.update { $0.clientBinaryMessages.append(bytes) }
      session.receive(.binary(bytes))
    case .ping(let payload):
      session.receive(.ping(payload))
    case .pong(let payload):
      server.update { $0.clientPongs.append(payload) }
      session.receive(.pong(payload))
    case .close(let status):
      server.update { $0.clientCloses.append(status) }
    }
    return true
  }
}

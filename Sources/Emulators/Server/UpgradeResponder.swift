import Recording
import WebSocketServer
import WebSocketWire

/// Answers one connection's upgrade request as its plan, its script and the venue say: a 101
/// (with the plan's odd status line or trailing bytes), a refusal (the script's 401, the plan's
/// 503 or 429 with `Retry-After`, the venue's 429 for an `Origin` header), a stalled answer, or
/// whatever the request itself deserves when it is not a valid upgrade. With a compression
/// policy, a 101 answers the client's permessage-deflate offer (when it can be accepted) and the
/// writer compresses from then on.
struct UpgradeResponder {
  let input: ServerInput
  let writer: ServerFrameWriter
  let life: ConnectionLife
  let plan: ConnectionPlan
  let script: SessionScript
  /// `Retry-After` seconds for a refusal the plan does not detail.
  let retryAfter: Int?
  /// How to answer a permessage-deflate offer; nil: never agree.
  let compression: PerMessageDeflate.ServerPolicy?

  /// The upgraded request, the bytes that followed its head (already WebSocket frames) and the
  /// permessage-deflate agreed (the server's view; the writer already compresses under it), or
  /// nil when the connection ends here. `received` is told of every parsed request (refused
  /// ones included); `admit` is the venue's word on a request everything else accepts.
  func respond(
    received: (ServerHandshake.Request) -> Void, admit: (ServerHandshake.Request) -> Admission
  ) -> (request: ServerHandshake.Request, leftover: [UInt8], deflate: PerMessageDeflate?)? {
    guard let (request, leftover) = ServerUpgrade.readRequest(input: input, writer: writer) else {
      return nil
    }
    received(request)
    guard let answer = answer(request, admit: admit) else { return nil }
    let agreement = compression.flatMap {
      PerMessageDeflate.serverAgreement(to: ExtensionHeader.values(in: request.head), policy: $0)
    }
    let headers = agreement.map { [(name: "Sec-WebSocket-Extensions", value: $0.response)] } ?? []
    guard
      ServerUpgrade.accept(
        request, writer: writer, statusLine: answer.statusLine, headers: headers, trailing: answer.trailing)
    else { return nil }
    if let agreement { writer.compress(under: agreement.agreed) }
    return (request, leftover, agreement?.agreed)
  }

  /// The 101's status line and trailing bytes, or nil when the request was refused (or the
  /// plan stalls) here.
  private func answer(
    _ request: ServerHandshake.Request, admit: (ServerHandshake.Request) -> Admission
  ) -> (statusLine: String, trailing: [UInt8])? {
    var status = script.handshakeStatus
    var retry = retryAfter
    var accepted = ("HTTP/1.1 101 Switching Protocols", [UInt8]())
    switch plan.handshake {
    case .script: break
    case .respond(let code, let reason, let fields):
      try? writer.write(
        ServerHandshake.response(
          status: code, reason: reason, headers: fields.map { ($0.name, $0.value) },
          body: Array("\(code)\n".utf8)))
      return nil
    case .accept(let line, let bytes):
      accepted = (line, bytes)
    case .refuse(let code, let reason, let retryAfter):
      status = (code, reason)
      retry = retryAfter
    case .stall:
      try? writer.write(Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n".utf8))
      life.waitForEnd(seconds: nil)
      return nil
    }
    if status.code != 101 {
      var fields: [HTTPHead.Field] = []
      if let retry { fields.append(.init(name: "Retry-After", value: String(retry))) }
      refuse(status.code, status.reason, fields: fields)
      return nil
    }
    if case .refuse(let code, let reason, _) = admit(request) {
      refuse(code, reason, fields: [])
      return nil
    }
    return accepted
  }

  private func refuse(_ code: Int, _ reason: String, fields: [HTTPHead.Field]) {
    ServerUpgrade.refuse(
      status: code, reason: reason, headers: fields.map { ($0.name, $0.value) }, writer: writer)
  }
}

import WebSocketWire

/// The server side of the opening handshake on a live connection: reading the client's request
/// head (bounded in size and time) and answering it — the `101`, or a refusal with a plain-text
/// body. Each answer is one write; the pure parts are `ServerHandshake`'s.
public enum ServerUpgrade {
  /// Reads until a whole request head arrived; returns it and the bytes that followed it
  /// (already WebSocket frames). A request that is not HTTP, or too large, is answered (400,
  /// 431) and gives nil; so do the end of the stream and `timeout` seconds without a byte.
  public static func readRequest(
    input: ServerInput, writer: ServerFrameWriter, timeout: Double = 10,
    maximumHeadSize: Int = Handshake.maximumHeadSize
  ) -> (request: ServerHandshake.Request, leftover: [UInt8])? {
    var bytes: [UInt8] = []
    while true {
      guard let more = input.read(timeout: timeout), !more.isEmpty else { return nil }
      bytes += more
      let parsed: (request: ServerHandshake.Request, consumed: Int)?
      do {
        parsed = try ServerHandshake.parseRequest(bytes, maximumHeadSize: maximumHeadSize)
      } catch {
        refuse(error, writer: writer)
        return nil
      }
      guard let (request, consumed) = parsed else { continue }
      return (request, Array(bytes[consumed...]))
    }
  }

  /// Answers `request` with `101 Switching Protocols` (after checking it is a WebSocket
  /// upgrade: else 400), with the extra `headers` (e.g. `Sec-WebSocket-Extensions`); false when
  /// it was refused or the write failed.
  @discardableResult
  public static func accept(
    _ request: ServerHandshake.Request, writer: ServerFrameWriter,
    statusLine: String = "HTTP/1.1 101 Switching Protocols", headers: [(name: String, value: String)] = [],
    trailing: [UInt8] = []
  ) -> Bool {
    let key: String
    do {
      key = try ServerHandshake.validateUpgrade(request)
    } catch {
      refuse(error, writer: writer)
      return false
    }
    do {
      try writer.write(
        ServerHandshake.upgradeResponse(forKey: key, headers: headers, statusLine: statusLine) + trailing)
      return true
    } catch {
      return false
    }
  }

  /// Refuses the upgrade: `code reason` with a `text/plain` body saying the same (and the extra
  /// header fields, e.g. `Retry-After`).
  public static func refuse(
    status code: Int, reason: String, headers: [(name: String, value: String)] = [], writer: ServerFrameWriter
  ) {
    try? writer.write(refusal(status: code, reason: reason, headers: headers))
  }

  /// Refuses a request that is not a valid upgrade (status and reason only, no body).
  public static func refuse(_ error: ServerHandshake.RequestError, writer: ServerFrameWriter) {
    try? writer.write(refusal(error))
  }

  /// The bytes of `refuse(status:reason:headers:writer:)`'s answer.
  public static func refusal(
    status code: Int, reason: String, headers: [(name: String, value: String)] = []
  ) -> [UInt8] {
    let fields = [(name: "Content-Type", value: "text/plain")] + headers
    return ServerHandshake.response(
      status: code, reason: reason, headers: fields, body: Array("\(code) \(reason)\n".utf8))
  }

  /// The bytes of `refuse(_:writer:)`'s answer.
  public static func refusal(_ error: ServerHandshake.RequestError) -> [UInt8] {
    ServerHandshake.response(status: error.status.code, reason: error.status.reason)
  }
}

import TickerSupport
import WebSocketWire

/// The server side of the opening handshake (for FeedServer and tests), as pure functions.
public enum ServerHandshake {
  /// A parsed request head.
  public struct Request: Sendable, Equatable {
    public var method: String
    public var target: String
    public var version: String
    public var head: HTTPHead
  }

  /// Why a client's upgrade request was refused.
  public enum RequestError: Error, Sendable, Equatable {
    case malformed(String)
    case tooLarge
    /// Not a WebSocket upgrade (wrong method, headers or version); what was wrong.
    case notWebSocketUpgrade(String)

    /// A status code and reason phrase to answer with.
    public var status: (code: Int, reason: String) {
      switch self {
      case .malformed, .notWebSocketUpgrade: (400, "Bad Request")
      case .tooLarge: (431, "Request Header Fields Too Large")
      }
    }
  }

  /// Parses a request head from the bytes received so far: nil when more bytes are needed;
  /// `consumed` counts the head including its blank line.
  public static func parseRequest(
    _ bytes: [UInt8], maximumHeadSize: Int = Handshake.maximumHeadSize
  ) throws(RequestError) -> (request: Request, consumed: Int)? {
    switch HTTPHead.scan(bytes, maximumSize: maximumHeadSize) {
    case .needMoreBytes: return nil
    case .tooLarge: throw .tooLarge
    case .malformed(let why): throw .malformed(why)
    case .complete(let head, let consumed):
      let parts = HTTPHead.split(head.startLine[...], on: " ")
      guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/") else {
        throw .malformed("bad request line")
      }
      let request = Request(
        method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), head: head)
      return (request, consumed)
    }
  }

  /// Checks that `request` is a WebSocket upgrade; returns its `Sec-WebSocket-Key`.
  public static func validateUpgrade(_ request: Request) throws(RequestError) -> String {
    guard request.method == "GET" else { throw .notWebSocketUpgrade("method \(request.method)") }
    guard request.version == "HTTP/1.1" else { throw .notWebSocketUpgrade("version \(request.version)") }
    let head = request.head
    guard head.tokens(of: "Upgrade").contains("websocket") else { throw .notWebSocketUpgrade("Upgrade") }
    guard head.tokens(of: "Connection").contains("upgrade") else { throw .notWebSocketUpgrade("Connection") }
    guard head.value(of: "Sec-WebSocket-Version") == "13" else {
      throw .notWebSocketUpgrade("Sec-WebSocket-Version")
    }
    guard let key = head.value(of: "Sec-WebSocket-Key"), Base64.decode(key)?.count == 16 else {
      throw .notWebSocketUpgrade("Sec-WebSocket-Key")
    }
    return key
  }

  /// The `101 Switching Protocols` response for `key`.
  public static func upgradeResponse(
    forKey key: String, headers: [(name: String, value: String)] = [],
    statusLine: String = "HTTP/1.1 101 Switching Protocols"
  ) -> [UInt8] {
    var fields: [(name: String, value: String)] = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"),
      ("Sec-WebSocket-Accept", Handshake.acceptValue(forKey: key)),
    ]
    fields.append(contentsOf: headers)
    return head(statusLine: statusLine, fields: fields)
  }

  /// Any other response (e.g. `401 Unauthorized` with a body), with `Content-Length` and
  /// `Connection: close` added.
  public static func response(
    status: Int, reason: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []
  ) -> [UInt8] {
    var fields = headers
    fields.append(("Content-Length", String(body.count)))
    fields.append(("Connection", "close"))
    return head(status: status, reason: reason, fields: fields) + body
  }

  private static func head(status: Int, reason: String, fields: [(name: String, value: String)]) -> [UInt8] {
    head(statusLine: "HTTP/1.1 \(status) \(reason)", fields: fields)
  }

  private static func head(statusLine: String, fields: [(name: String, value: String)]) -> [UInt8] {
    var text = statusLine + "\r\n"
    for field in fields {
      text += "\(HTTPHead.fieldText(field.name, dropping: ":")): \(HTTPHead.fieldText(field.value))\r\n"
    }
    text += "\r\n"
    return Array(text.utf8)
  }
}

import WebSocketWire

/// A response of the metrics endpoint: always `Content-Length`, always `Connection: close` (one
/// request a connection: a scraper opens the next one). Pure.
struct HTTPResponse: Sendable, Equatable {
  var status: Int
  /// Fields besides `Content-Length` and `Connection`, which `bytes` writes.
  var fields: [HTTPHead.Field]
  var body: [UInt8]

  static let plainText = "text/plain; charset=utf-8"

  init(status: Int, fields: [HTTPHead.Field] = [], body: [UInt8]) {
    self.status = status
    self.fields = fields
    self.body = body
  }

  /// A short text body (`not found\n`).
  static func text(_ status: Int, _ body: String, fields: [HTTPHead.Field] = []) -> Self {
    HTTPResponse(
      status: status, fields: [HTTPHead.Field(name: "Content-Type", value: plainText)] + fields,
      body: Array(body.utf8))
  }

  /// The bytes to send; `headOnly` (a `HEAD` request): the same head, the body's length
  /// included, without the body.
  func bytes(headOnly: Bool = false) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for field in fields { head += "\(field.name): \(field.value)\r\n" }
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    return headOnly ? Array(head.utf8) : Array(head.utf8) + body
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 414: "URI Too Long"
    case 431: "Request Header Fields Too Large"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}

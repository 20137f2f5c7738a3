import Foundation
import Transport

/// One HTTP/1.1 GET over a fresh loopback connection (`Connection: close`), for the tests of
/// `--metrics` and of the Prometheus server that scrapes it: the status and the body.
struct HTTPFetch: Sendable {
  var status: Int
  var headers: [String]
  var body: String

  static func get(_ port: Int, _ path: String, headers extra: [String] = [], timeout: Double = 10) throws
    -> HTTPFetch
  {
    let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: timeout)
    defer { stream.close() }
    let request =
      (["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + extra + ["", ""])
      .joined(separator: "\r\n")
    try Array(request.utf8).withUnsafeBytes { try stream.write($0, timeout: timeout) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0, timeout: timeout) }
      if count == 0 { break }
      response += buffer[0..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else {
      throw HTTPFetchError("no head in: \(text.prefix(200))")
    }
    let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let parts = head.first?.split(separator: " ") ?? []
    guard parts.count >= 2, let status = Int(parts[1]) else {
      throw HTTPFetchError("bad status line: \(head.first ?? "")")
    }
    return HTTPFetch(
      status: status, headers: Array(head.dropFirst()), body: String(text[split.upperBound...]))
  }

  /// A free loopback port now (bound, read, closed): for servers that cannot pick one themselves.
  static func freePort() throws -> Int {
    let listener = try TCPListener(host: "127.0.0.1", port: 0)
    defer { listener.close() }
    return listener.port
  }
}

struct HTTPFetchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

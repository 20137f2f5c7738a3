import Transport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A response as a test client read it: until the server closed the connection.
struct HTTPTestResponse: Sendable {
  var status: Int
  /// Field names lower-cased; the first of each.
  var fields: [String: String]
  var body: String

  /// Parses a whole response; nil when it is not one.
  init?(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.firstRange(of: "\r\n\r\n") else { return nil }
    let lines = text[..<end.lowerBound].split(separator: "\r\n", omittingEmptySubsequences: false)
    let start = lines[0].split(separator: " ", maxSplits: 2)
    guard start.count == 3, start[0] == "HTTP/1.1", let status = Int(start[1]) else { return nil }
    self.status = status
    fields = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon].lowercased()
      if fields[name] == nil {
        fields[name] = line[line.index(after: colon)...].trimmingPrefix(" ").description
      }
    }
    body = String(text[end.upperBound...])
  }
}

/// A blocking HTTP client of one request a connection, for the endpoint's tests.
enum HTTPTestClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Sends `raw` and reads until the server closes.
  static func exchange(port: Int, _ raw: String, timeout: Double = 20) throws -> HTTPTestResponse {
    let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: timeout)
    defer { stream.close() }
    try Array(raw.utf8).withUnsafeBytes { try stream.write($0, timeout: timeout) }
    let bytes = try readToEnd(stream, timeout: timeout)
    guard let response = HTTPTestResponse(bytes) else {
      throw Failure(description: "not a response: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
    }
    return response
  }

  static func request(
    port: Int, _ path: String, method: String = "GET", fields: [String] = [], timeout: Double = 20
  ) throws -> HTTPTestResponse {
    let head = (["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + fields).joined(separator: "\r\n")
    return try exchange(port: port, head + "\r\n\r\n", timeout: timeout)
  }

  /// Everything until the peer's end of stream (a reset after some bytes ends it too).
  static func readToEnd(_ stream: TCPStream, timeout: Double) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count: Int
      do {
        count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0, timeout: timeout) }
      } catch TransportError.syscall(_, ECONNRESET) where !bytes.isEmpty {
        return bytes
      }
      if count == 0 { return bytes }
      bytes += buffer[0..<count]
    }
  }
}

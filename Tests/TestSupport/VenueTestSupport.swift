import Dispatch
import Emulators
import Foundation
import Recording
import Synchronization
import Testing
import TickerSupport
import WebSocketClient
import WebSocketServer

@testable import JSON
@testable import Transport
@testable import WebSocketWire

/// Helpers for the venue emulator tests: upgrade requests to hand an emulator, instants, JSON
/// reading, a raw WebSocket client, and a hang guard for a FeedServer.
package enum VenueTest {
  /// An upgrade request for `target` with these extra header fields, as a server parses it.
  static func request(_ target: String, headers: [(String, String)] = []) throws -> ServerHandshake.Request {
    var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    text += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    return try #require(try ServerHandshake.parseRequest(Array((text + "\r\n").utf8))).request
  }

  /// `seconds` after the connection opened.
  static func at(_ seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }

  static func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

  static func serverStep(_ kind: SessionScript.Kind, _ body: String, after: Int = 0) -> SessionScript.Step {
    .init(direction: .server, kind: kind, afterMilliseconds: after, body: body)
  }

  static func fixture(_ venue: String) throws -> SessionScript {
    try SessionScript(ndjson: Fixture.text("\(venue)-session.ndjson"))
  }

  /// The server steps of a fixture that carry data (text or binary), in order.
  static func dataSteps(_ script: SessionScript) -> [SessionScript.Step] {
    script.steps.filter { $0.direction == .server && ($0.kind == .text || $0.kind == .binary) }
  }

  /// The client messages of a fixture, in order.
  static func clientMessages(_ script: SessionScript) -> [String] {
    script.steps.filter { $0.direction == .client }.map(\.body)
  }
}

/// Stops `server` (dropping every connection, so that whatever waits on one fails instead of
/// hanging) if `cancel()` has not been called within `seconds`. A hang guard, not a timing check.
package final class HangGuard: Sendable {
  private let cancelled = Mutex(false)

  init(_ server: FeedServer, seconds: Double = 180) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self, server] in
      if !cancelled.withLock({ $0 }) { server.stop() }
    }
  }

  func cancel() { cancelled.withLock { $0 = true } }
}

/// A WebSocket client made of raw parts, for what our engine would not do (never answer a
/// ping): the upgrade, masked frames out, frames in. Blocking; run it off the pool.
package final class RawWebSocketClient {
  private let stream: TCPStream
  private var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
  private var random = SystemRandomNumberGenerator()

  /// Connects and upgrades; throws when the server does not answer 101.
  init(port: Int, target: String) throws {
    stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 30)
    let key = Handshake.makeKey(using: &random)
    try stream.write(
      Handshake.request(
        for: WebSocketURL(isSecure: false, host: "127.0.0.1", port: port, target: target), key: key,
        headers: []),
      timeout: 30)
    var received: [UInt8] = []
    while true {
      let bytes = try readSome()
      guard !bytes.isEmpty else { throw RawClientError.closedDuringHandshake }
      received += bytes
      if let (response, consumed) = try Handshake.parseResponseHead(received) {
        guard response.status == 101 else { throw RawClientError.status(response.status) }
        parser.append(received[consumed...])
        return
      }
    }
  }

  deinit { stream.close() }

  func send(_ frame: Frame) throws {
    try stream.write(FrameEncoder.encodeClientFrame(frame, using: &random), timeout: 30)
  }

  /// The next server frame, or nil once the server has dropped or shut the connection.
  func readFrame() throws -> Frame? {
    while true {
      if let frame = try parser.next() { return frame }
      let bytes = try readSome()
      if bytes.isEmpty { return nil }
      parser.append(bytes)
    }
  }

  private func readSome() throws -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = try chunk.withUnsafeMutableBytes { try stream.read(into: $0, timeout: 60) }
    return Array(chunk[0..<count])
  }
}

enum RawClientError: Error {
  case closedDuringHandshake
  case status(Int)
}

/// A connection read through one iterator (the iterator hands out the batches the channel
/// gives it: a fresh iterator per message would lose the rest of a batch).
package final class MessageReader {
  let connection: any MessageConnection
  private var iterator: MessageChannel<WebSocketMessage>.AsyncIterator
  /// Whether the connection ended with an error (a drop: no close handshake).
  private(set) var failed = false

  init(_ connection: any MessageConnection) {
    self.connection = connection
    iterator = connection.messages.makeAsyncIterator()
  }

  func send(_ message: WebSocketMessage) async throws { try await connection.send(message) }

  func close() async { await connection.close(CloseStatus(code: .normalClosure), timeout: 5) }

  /// The next message, or nil when the connection has ended (normally or not).
  func next() async -> WebSocketMessage? {
    var copy = iterator
    defer { iterator = copy }
    do {
      return try await copy.next()
    } catch {
      failed = true
      return nil
    }
  }

  /// Messages until one matches `stop` (included), or nil if the connection ends first.
  func messages(until stop: (WebSocketMessage) -> Bool) async -> [WebSocketMessage]? {
    var collected: [WebSocketMessage] = []
    while let message = await next() {
      collected.append(message)
      if stop(message) { return collected }
    }
    return nil
  }

  /// Every message until the connection ends.
  func drain() async -> [WebSocketMessage] {
    var collected: [WebSocketMessage] = []
    while let message = await next() { collected.append(message) }
    return collected
  }
}

extension WebSocketMessage {
  /// The payload as text, whichever frame type carried it.
  var text: String {
    switch self {
    case .text(let text): text
    case .binary(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  package var isBinary: Bool {
    if case .binary = self { return true }
    return false
  }
}

import Foundation
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// Kraken's emulation over a real socket, with our own engine as the client. Time bounds are hang
/// guards only: every wait ends on an event.
@Suite("FeedServer: Kraken emulation end to end")
struct KrakenEmulatorSocketTests {
  static func serve(
    _ script: SessionScript, rules: KrakenRules = KrakenRules(), ending: ConnectionPlan.Ending = .hold
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: script,
      options: .init(timeScale: 0, emulation: .emulating(KrakenProvider(), rules: rules), ending: ending))
    server.start()
    return server
  }

  static func connect(_ server: FeedServer, target: String? = nil) async throws -> MessageReader {
    var url = server.url
    if let target { url.target = target }
    return MessageReader(
      try await NativeEngine().connect(to: url, options: ConnectOptions(connectTimeout: 30)))
  }

  /// The next message that is not a heartbeat.
  static func next(_ connection: MessageReader) async -> WebSocketMessage? {
    while let message = await connection.next() {
      if message != .text(KrakenWire.heartbeat) { return message }
    }
    return nil
  }

  static func field(_ message: WebSocketMessage?, _ key: String) -> String? {
    guard let message, let value = try? VenueTest.json(message.text) else { return nil }
    return value[key]?.stringValue ?? value[key]?.numberText ?? value[key]?.boolValue.map { "\($0)" }
  }

  @Test(
    "status first; answers per pair; the snapshot and updates; a refused pair leaves the rest and the connection"
  )
  func subscribe() async throws {
    let fixture = try VenueTest.fixture("kraken")
    let server = try Self.serve(fixture)
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    #expect(server.url.target == "/v2")
    let connection = try await Self.connect(server)
    #expect(await connection.next() == .text(KrakenWire.status))
    try await connection.send(
      .text(
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","XBT/USD"]},"req_id":1}"#))
    let ack = await Self.next(connection)
    #expect(Self.field(ack, "success") == "true" && Self.field(ack, "req_id") == "1")
    let refusal = await Self.next(connection)
    #expect(Self.field(refusal, "error") == "Currency pair not supported XBT/USD")
    #expect(Self.field(refusal, "symbol") == "XBT/USD" && Self.field(refusal, "req_id") == "1")
    let recorded = VenueTest.dataSteps(fixture).map(\.body)
    #expect(await Self.next(connection) == .text(recorded[2]))  // the snapshot
    #expect(await Self.next(connection) == .text(recorded[4]))  // an update
    #expect(await Self.next(connection) == .text(recorded[6]))
    // Still open: a ping is answered.
    try await connection.send(.text(#"{"method":"ping","req_id":5}"#))
    let pong = await Self.next(connection)
    #expect(Self.field(pong, "method") == "pong" && Self.field(pong, "req_id") == "5")
    await connection.close()
    #expect(server.record.subscriptions.map(\.subscribed) == [["BTC/USD"]])
    #expect(server.record.violations == [.invalidRequest("Currency pair not supported XBT/USD")])
  }

  @Test("heartbeats while subscribed and quiet")
  func heartbeats() async throws {
    var rules = KrakenRules()
    rules.heartbeatInterval = 0.02
    let server = try Self.serve(SessionScript(steps: []), rules: rules)
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    #expect(await connection.next() == .text(KrakenWire.status))
    try await connection.send(
      .text(#"{"method":"subscribe","params":{"channel":"ticker","symbol":["ETH/USD"]},"req_id":1}"#))
    #expect(Self.field(await connection.next(), "success") == "true")
    for _ in 0..<3 { #expect(await connection.next() == .text(KrakenWire.heartbeat)) }
    await connection.close()
  }

  @Test("a client that sends no request within the idle timeout is closed")
  func idle() async throws {
    let server = try Self.serve(SessionScript(steps: []), rules: KrakenRules().scaled(by: 0.005))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let connection = try await Self.connect(server)
    let messages = await connection.drain()
    #expect(messages.first == .text(KrakenWire.status))
    #expect(connection.connection.peerCloseStatus == CloseStatus(code: .goingAway, reason: "idle"))
    #expect(server.record.violations == [.idle])
  }

  @Test("the feed is at /v2 only")
  func path() async throws {
    let server = try Self.serve(SessionScript(steps: []))
    defer { server.stop() }
    await #expect(throws: WebSocketError.self) { _ = try await Self.connect(server, target: "/") }
    #expect(server.record.violations == [.refusedHandshake("unknown path /")])
  }
}

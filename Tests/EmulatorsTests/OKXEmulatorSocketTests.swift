import FeedRuntime
import Foundation
import Synchronization
import Testing
import TickerSupport
import Venues
import WebSocketClient

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import Transport
@testable import WebSocketWire

/// The OKX emulation over a real socket: a client that never pings is closed as OKX closes it,
/// the runtime's text `ping` keeps a quiet connection, and new connections past the venue's rate
/// are refused. Time bounds are hang guards only: every wait ends on an event.
@Suite("FeedServer: the OKX emulation end to end", .ownThread)
struct OKXEmulatorSocketTests {
  static func serve(rules: OKXRules, ending: ConnectionPlan.Ending = .hold) throws -> FeedServer {
    let server = try FeedServer(
      script: try VenueTest.fixture("okx"),
      options: .init(timeScale: 0, emulation: .emulating(OKXProvider(), rules: rules), ending: ending))
    server.start()
    return server
  }

  static let subscribe = #"{"id":"1","op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#

  @Test("a client that never pings: the tickers, then, once quiet for the scaled 30 s, a close with 4004")
  func neverPings() async throws {
    let server = try Self.serve(rules: OKXRules().scaled(by: 0.1))
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    // Raw frames on a thread of its own: it subscribes at once after the upgrade (a task held up
    // on a loaded machine could miss the scaled 3 s), then never sends the text `ping`, nor a
    // WebSocket ping.
    let port = server.port
    let frames = try await offPool { () -> Result<[Frame], any Error> in
      Result {
        let client = try RawWebSocketClient(port: port, target: "/ws/v5/public")
        try client.send(Frame(opcode: .text, payload: Array(Self.subscribe.utf8)))
        var frames: [Frame] = []
        while let frame = try client.readFrame() {
          frames.append(frame)
          if frame.opcode == .close { break }
        }
        return frames
      }
    }.get()
    let recorded = VenueTest.dataSteps(try VenueTest.fixture("okx")).map(\.body)
    // The answer, then the four tickers: what the recording's client got, without its pong and
    // error; then the close.
    let texts = frames.filter { $0.opcode == .text }.map { String(decoding: $0.payload, as: UTF8.self) }
    #expect(texts == [recorded[0], recorded[1], recorded[2], recorded[3], recorded[6]])
    let close = try #require(frames.last)
    #expect(close.opcode == .close)
    #expect(close.payload == [0x0F, 0xA4] + Array("No data received in 30s".utf8))  // 4004
    #expect(server.record.violations == [.quiet])
  }

  final class Reports: Sendable {
    let all = Mutex<[FeedReport]>([])
    var disconnects: [DisconnectReason] {
      all.withLock { reports in
        reports.compactMap { if case .disconnected(let reason, _, _) = $0 { reason } else { nil } }
      }
    }
  }

  /// A feed of BTC-USDT from `server` through OKX's provider with this keepalive interval.
  static func feed(_ server: FeedServer, keepalive: Duration, reports: Reports) -> Feed {
    Feed(
      Feed.Settings(
        provider: OKXProvider(keepaliveInterval: keepalive), engine: NativeEngine(), url: server.url,
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["BTC-USDT"])
    ) { report in reports.all.withLock { $0.append(report) } }
  }

  @Test(
    "our runtime's text ping keeps a connection the venue pushes nothing else to", .timeLimit(.minutes(2)))
  func keptByThePing() async throws {
    // Pings every 0.25 s against a 6 s quiet rule (which also bounds the wait for the first
    // subscription): a timer late by 5 s would still be in time (the feed runs on the test's own
    // thread, `.ownThread`, so a busy pool cannot hold it back). 30 pings span longer than the rule.
    var rules = OKXRules()
    rules.quietTimeout = 6
    let server = try Self.serve(rules: rules)
    defer { server.stop() }
    let reports = Reports()
    let feed = Self.feed(server, keepalive: .milliseconds(250), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    #expect(await eventually(within: 90) { server.record.clientMessages.filter { $0 == "ping" }.count >= 30 })
    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    #expect(server.record.violations.isEmpty, "\(server.record.violations)")
    #expect(server.record.connections == 1)
    #expect(reports.disconnects.isEmpty, "\(reports.disconnects)")
    // Subscribed once; unsubscribed before closing.
    #expect(server.record.clientMessages.first == Self.subscribe)
    #expect(
      server.record.clientMessages.last
        == #"{"id":"2","op":"unsubscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#)
  }

  @Test(
    "without the ping in time, the venue closes (4004) and the runtime reconnects and subscribes again",
    .timeLimit(.minutes(2)))
  func closedWithoutThePing() async throws {
    // 4 s: the subscription arrives well within it however loaded the machine, then nothing
    // comes for 4 s.
    var rules = OKXRules()
    rules.quietTimeout = 4
    let server = try Self.serve(rules: rules)
    defer { server.stop() }
    let reports = Reports()
    let feed = Self.feed(server, keepalive: .seconds(3600), reports: reports)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    // Subscribed, quiet, closed; subscribed again on the next connection.
    #expect(await eventually(within: 90) { server.record.violations.contains(.quiet) })
    #expect(
      await eventually(within: 90) {
        server.record.subscriptions.contains { $0.connection >= 1 && $0.subscribed == ["BTC-USDT"] }
      })
    feed.stop(.signal(2))
    _ = await run.value
    #expect(
      reports.disconnects.first
        == .peerClosed(CloseStatus(code: CloseCode(4004), reason: "No data received in 30s")))
  }

  @Test("more connections than the venue takes in its window: the next upgrade is refused with 429")
  func connectionRate() async throws {
    var rules = OKXRules()
    rules.connectionsPerSecond = 3
    // Ten minutes: however slowly this machine opens them, the four count in one window.
    rules.connectionWindow = 600
    rules.quietTimeout = nil  // the open connections never subscribe
    let server = try Self.serve(rules: rules)
    defer { server.stop() }
    var open: [any MessageConnection] = []
    for _ in 0..<3 {
      open.append(
        try await NativeEngine().connect(to: server.url, options: ConnectOptions(connectTimeout: 30)))
    }
    await #expect(throws: WebSocketError.self) {
      _ = try await NativeEngine().connect(to: server.url, options: ConnectOptions(connectTimeout: 30))
    }
    #expect(server.record.connections == 4)
    #expect(server.record.violations == [.refusedHandshake("too many connections a second")])
    for connection in open { await connection.close(CloseStatus(code: .normalClosure), timeout: 5) }
  }
}

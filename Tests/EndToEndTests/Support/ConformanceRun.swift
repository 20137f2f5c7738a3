import Foundation
import Synchronization
import Testing
import WebSocketClient

@testable import TestSupport
@testable import WebSocketWire

/// One conformance case of `Tests/Support/raw_peer.py` (the cases of the native engine's
/// `ConformanceTests`, by the same ids), what a conforming client does with it, and how to play
/// it with either engine: the native one in this process, the URLSession one in `plugin_client`.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
  var id: String
  var note: String
  /// The data messages, in order.
  var messages: [WebSocketMessage] = []
  /// The pong payloads the client must send.
  var pongs: [[UInt8]] = []
  /// Clean cases: the peer's close the client must report (it echoes the code).
  var peerClose: CloseStatus? = CloseStatus(code: .normalClosure, reason: "done")
  /// Failing cases: the close code the client must fail the connection with.
  var failCode: Int?
  var maxSize = 1 << 24
  var testDescription: String { "\(id) \(note)" }
}

/// What one engine did with a case, as both sides saw it.
struct ConformanceOutcome: Sendable {
  var messages: [WebSocketMessage]
  var peerClose: CloseStatus?
  var failed: Bool
  var crashed: Bool
  var report: RawReport?

  /// Whether this is what RFC 6455 asks of a client; else what differs.
  func deviation(from c: ConformanceCase) -> String? {
    if crashed { return "the client process crashed" }
    guard let report else { return "the peer reported nothing (the client hung)" }
    var wrong: [String] = []
    if messages != c.messages {
      wrong.append("messages \(messages.map(Self.summary)) ≠ \(c.messages.map(Self.summary))")
    }
    let pongs = report.frames.prefix { $0.opcode != 8 }.filter { $0.opcode == 10 }.compactMap(\.payload)
    if pongs != c.pongs { wrong.append("pongs \(pongs.map(\.count)) ≠ \(c.pongs.map(\.count)) bytes") }
    if let code = c.failCode {
      if report.closeCode != code {
        wrong.append("closed with \(report.closeCode.map(String.init) ?? "none"), not \(code)")
      }
      if !failed { wrong.append("the connection did not fail") }
    } else if let status = c.peerClose {
      if peerClose != status { wrong.append("peer close \(peerClose.map { "\($0)" } ?? "none") ≠ \(status)") }
      if failed { wrong.append("the connection failed") }
    }
    return wrong.isEmpty ? nil : wrong.joined(separator: "; ")
  }

  static func summary(_ message: WebSocketMessage) -> String {
    switch message {
    case .text(let text):
      text.utf8.count <= 24 ? "text \(text.debugDescription)" : "text of \(text.utf8.count) B"
    case .binary(let bytes): "binary of \(bytes.count) B"
    }
  }
}

/// raw_peer.py's report of one connection (the fields used here).
struct RawReport: Decodable, Sendable {
  struct Frame: Decodable, Sendable {
    var opcode: Int
    var payloadHex: String?
    var payload: [UInt8]? { payloadHex.map { $0.isEmpty ? [] : Hex.decode($0) } }
  }
  var `case`: String
  var run: Int
  var frames: [Frame]
  var closeCode: Int?
  var tcpClosed: Bool
}

/// The raw peer, started once per test process.
final class RawConformancePeer: Sendable {
  let peer: LinePeer
  let port: Int
  private let runs = Mutex(0)

  private static let started = AsyncOnce<Result<RawConformancePeer, LinePeer.Failure>>()

  static func shared() async throws -> RawConformancePeer {
    try await started.value {
      do {
        let (peer, port) = try await LinePeer.python("raw_peer.py", [])
        return .success(RawConformancePeer(peer: peer, port: port))
      } catch {
        return .failure(LinePeer.Failure(description: "raw_peer.py: \(error)"))
      }
    }.get()
  }

  private init(peer: LinePeer, port: Int) {
    self.peer = peer
    self.port = port
  }

  func url(for id: String) -> (url: String, run: Int) {
    let run = runs.withLock { n -> Int in
      n += 1
      return n
    }
    return ("ws://127.0.0.1:\(port)/case/\(id)?run=\(run)", run)
  }

  func report(_ id: String, run: Int) async -> RawReport? {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return await eventuallyValue(within: 20) { [peer] in
      for line in peer.all where line.hasPrefix("{") {
        if let r = try? decoder.decode(RawReport.self, from: Data(line.utf8)), r.case == id, r.run == run {
          return r
        }
      }
      return nil
    }
  }

  /// The case with the native engine, in this process.
  func playNative(_ c: ConformanceCase) async throws -> ConformanceOutcome {
    let (url, run) = url(for: c.id)
    let connection = try await NativeEngine().connect(
      to: try WebSocketURL(parsing: url), options: ConnectOptions(maximumMessageSize: c.maxSize))
    var messages: [WebSocketMessage] = []
    var failed = false
    do {
      for try await message in connection.messages { messages.append(message) }
    } catch { failed = true }
    await connection.close(CloseStatus(code: .normalClosure), timeout: 2)
    return ConformanceOutcome(
      messages: messages, peerClose: connection.peerCloseStatus, failed: failed, crashed: false,
      report: await report(c.id, run: run))
  }

  /// The case with the URLSession engine in `plugin_client` (preload + libcurl 8.14.1).
  func playURLSession(_ c: ConformanceCase) async throws -> ConformanceOutcome {
    let (url, run) = url(for: c.id)
    let client = try PluginClient(.backports)
    let connectError = await client.connect(url, maxSize: c.maxSize)
    let end = connectError == nil ? await client.end(within: 10) : nil
    let crashed = connectError == nil && end == nil && !client.isRunning
    await client.quit()
    return ConformanceOutcome(
      messages: client.receivedMessages, peerClose: end?.status,
      failed: connectError != nil || end?.error != nil,
      crashed: crashed, report: await report(c.id, run: run))
  }
}

/// A value computed once, by the first caller; the others wait for it.
final class AsyncOnce<T: Sendable>: Sendable {
  private let task = Mutex<Task<T, Never>?>(nil)
  func value(_ make: @escaping @Sendable () async -> T) async -> T {
    let t = task.withLock { task in
      if let task { return task }
      let new = Task { await make() }
      task = new
      return new
    }
    return await t.value
  }
}

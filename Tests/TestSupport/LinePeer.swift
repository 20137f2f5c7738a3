import Foundation
import Synchronization

/// A peer or helper process that speaks in lines: a Python WebSocket server from
/// `Tests/Support/` (prints "PORT <n>" first) or `plugin_client`. Its stdout is collected line
/// by line on a thread of its own; `expect` waits for a line (bounded, off the concurrency pool).
package final class LinePeer: Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let process: Spawned
  /// Shared with the reading thread (which must not keep `self` alive).
  private final class Lines: Sendable {
    let all = Mutex<[String]>([])
  }
  private let lines = Lines()
  private let consumed = Mutex(0)

  package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
    // A child that died must not take the test process with it when we write to it: `Spawned`
    // ignores SIGPIPE.
    process = try Spawned(
      executable, arguments, environment: environment, standardInput: .pipe, standardOutput: .pipe,
      standardError: .inherit)
    guard let reader = process.standardOutput else {
      throw Failure(description: "\(executable): no stdout pipe")
    }
    Thread.detachNewThread { [lines] in
      var pending: [UInt8] = []
      while true {
        let data = reader.availableData
        if data.isEmpty { break }
        pending += data
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          lines.all.withLock { $0.append(line) }
          pending.removeSubrange(...newline)
        }
      }
    }
  }

  /// A Python peer from `Tests/Support/`, once it printed its port.
  package static func python(_ script: String, _ arguments: [String]) async throws -> (LinePeer, Int) {
    try TestTools.require([.pythonWebsockets])
    let peer = try LinePeer(
      TestTools.python, [TestTools.supportScript(script)] + arguments)
    guard let line = await peer.expect({ $0.hasPrefix("PORT ") }), let port = Int(line.dropFirst(5)) else {
      throw Failure(description: "\(script) did not print its port")
    }
    return (peer, port)
  }

  deinit {
    try? process.standardInput?.close()
    process.terminate()
  }

  package func send(_ line: String) {
    try? process.standardInput?.write(contentsOf: Data((line + "\n").utf8))
  }

  package var isRunning: Bool { process.isRunning }

  /// Every line so far.
  package var all: [String] { lines.all.withLock { $0 } }

  /// The next line (after those already taken by `expect`) that `match` accepts, skipping the
  /// others; nil when none came within `seconds` (a hang guard only).
  package func expect(within seconds: Double = 30, _ match: @escaping @Sendable (String) -> Bool) async
    -> String?
  {
    await eventuallyValue(within: seconds) { [self] in
      let start = consumed.withLock { $0 }
      let snapshot = all
      guard start < snapshot.count, let index = snapshot[start...].firstIndex(where: match) else {
        return nil
      }
      consumed.withLock { $0 = index + 1 }
      return snapshot[index]
    }
  }

  /// Closes stdin (peers then exit) and waits for the exit (bounded).
  package func finish() async {
    try? process.standardInput?.close()
    _ = await process.exited(within: 30)
  }
}

/// Hex as the line protocols use it ("-" for no bytes).
package enum Hex {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let text = bytes.map { String(format: "%02x", $0) }.joined()
    return text.isEmpty ? "-" : text
  }

  package static func decode(_ text: some StringProtocol) -> [UInt8] {
    guard text != "-" else { return [] }
    let digits = Array(text.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map { i in
      UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) ?? 0
    }
  }
}

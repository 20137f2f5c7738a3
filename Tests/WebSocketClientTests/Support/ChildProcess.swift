import Foundation
import Synchronization
import TestSupport

@testable import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process (found on PATH) whose stdout and stderr are collected together, for tests
/// that need a real peer such as `openssl s_server`. Terminated on `terminate()` or deinit.
final class ChildProcess: Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Shared with the thread that reads the pipe (which must not keep the ChildProcess alive).
  private final class Collected: Sendable {
    let text = Mutex("")
    let changed = DispatchSemaphore(value: 0)
    let finishedReading = DispatchSemaphore(value: 0)
  }

  private let child: Spawned
  private let collected = Collected()
  private var changed: DispatchSemaphore { collected.changed }
  private var finishedReading: DispatchSemaphore { collected.finishedReading }

  /// With `keepingStandardInputOpen`, the child's stdin is a pipe that stays open until
  /// `closeStandardInput()` or `terminate()`; otherwise stdin is /dev/null.
  init(_ arguments: [String], keepingStandardInputOpen: Bool = false) throws {
    child = try Spawned(
      "/usr/bin/env", arguments, standardInput: keepingStandardInputOpen ? .pipe : .null,
      standardOutput: .pipe,
      standardError: .standardOutput)
    guard let handle = child.standardOutput else {
      throw Failure(description: "\(arguments): no stdout pipe")
    }
    DedicatedThread.start { [collected] in
      var buffer = [UInt8](repeating: 0, count: 64 << 10)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        collected.text.withLock { $0 += String(decoding: buffer[0..<count], as: UTF8.self) }
        collected.changed.signal()
      }
      collected.finishedReading.signal()
      collected.changed.signal()
    }
  }

  deinit { terminate() }

  /// Everything the child wrote so far.
  var text: String { collected.text.withLock { $0 } }

  /// Waits until `extract` finds what it wants in the output so far, or the child stops writing,
  /// or `seconds` pass (a bound that only guards against a hang).
  func waitForOutput<T>(within seconds: Double = 30, _ extract: (String) -> T?) -> T? {
    let limit = DispatchTime.now() + seconds
    while true {
      if let found = extract(text) { return found }
      if finishedReading.wait(timeout: .now()) == .success {
        finishedReading.signal()
        return extract(text)
      }
      if changed.wait(timeout: limit) == .timedOut { return extract(text) }
    }
  }

  /// Waits for the child to exit (bounded) and returns its status; throws when it did not
  /// exit by itself (a signal ended it) or did not end in time.
  func waitForExit(within seconds: Double = 60) throws -> Int32 {
    guard finishedReading.wait(timeout: .now() + seconds) == .success else {
      terminate()
      throw Failure(description: "\(child.command) did not finish in \(seconds) s")
    }
    finishedReading.signal()
    guard let termination = child.waitForExit(within: seconds) else {
      throw Failure(description: "\(child.command) closed its output but did not exit")
    }
    guard let status = termination.status else {
      throw Failure(description: "\(child.command) ended: \(termination): \(text)")
    }
    return status
  }

  /// Kills the child without waiting for it: this runs in `defer` blocks of async tests, on the
  /// concurrency pool, where a wait would hold one of its few threads (`Spawned` reaps the child
  /// on a thread of its own; its sockets close as it dies).
  func terminate() {
    child.terminate()
    closeStandardInput()
  }

  /// Closes the write end of the child's stdin (when it was kept open): the child sees EOF.
  func closeStandardInput() { try? child.standardInput?.close() }

  /// Runs a command to completion; throws with its output when it fails.
  @discardableResult
  static func run(_ arguments: [String]) throws -> String {
    let child = try ChildProcess(arguments)
    let status = try child.waitForExit()
    guard status == 0 else {
      throw Failure(description: "\(arguments.joined(separator: " ")) exited \(status): \(child.text)")
    }
    return child.text
  }
}

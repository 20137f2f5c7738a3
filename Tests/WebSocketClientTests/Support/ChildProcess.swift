import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process (found on PATH) whose stdout and stderr are collected together, for tests
/// that need a real peer such as `openssl s_server`. Terminated on `terminate()` or deinit.
final class ChildProcess: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Shared with the thread that reads the pipe (which must not keep the ChildProcess alive).
  private final class Collected: Sendable {
    let text = Mutex("")
    let changed = DispatchSemaphore(value: 0)
    let finishedReading = DispatchSemaphore(value: 0)
  }

  private let process = Process()
  private let collected = Collected()
  /// The child's stdin when it was asked to stay open (peers that serve until stdin closes).
  private let input: Pipe?
  private let inputClosed = Mutex(false)
  private var changed: DispatchSemaphore { collected.changed }
  private var finishedReading: DispatchSemaphore { collected.finishedReading }

  /// With `keepingStandardInputOpen`, the child's stdin is a pipe that stays open until
  /// `closeStandardInput()` or `terminate()`; otherwise stdin is /dev/null.
  init(_ arguments: [String], keepingStandardInputOpen: Bool = false) throws {
    let pipe = Pipe()
    input = keepingStandardInputOpen ? Pipe() : nil
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = input ?? FileHandle.nullDevice
    try process.runOnOneArena()
    let handle = pipe.fileHandleForReading
    Thread.detachNewThread { [collected] in
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        collected.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
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

  /// Waits for the child to exit (bounded) and returns its status.
  func waitForExit(within seconds: Double = 60) throws -> Int32 {
    guard finishedReading.wait(timeout: .now() + seconds) == .success else {
      terminate()
      throw Failure(description: "\(process.arguments ?? []) did not finish in \(seconds) s")
    }
    finishedReading.signal()
    guard process.waitForExit(within: seconds) else {
      throw Failure(description: "\(process.arguments ?? []) closed its output but did not exit")
    }
    return process.terminationStatus
  }

  /// Kills the child without waiting for it: this runs in `defer` blocks of async tests, on the
  /// concurrency pool, where a wait would hold one of its few threads (Foundation reaps the
  /// child by itself; its sockets close as it dies).
  func terminate() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    closeStandardInput()
  }

  /// Closes the write end of the child's stdin (when it was kept open): the child sees EOF.
  func closeStandardInput() {
    guard let input else { return }
    let wasClosed = inputClosed.withLock { closed in
      let was = closed
      closed = true
      return was
    }
    if !wasClosed { try? input.fileHandleForWriting.close() }
  }

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

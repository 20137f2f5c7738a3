import Foundation
import Synchronization
import TestSupport
import Testing

/// A `ticker` process under test that is still running: read its stdout line by line as it
/// writes, signal it, close its stdout early, then collect how it ended.
///
/// stdout is a pipe this object owns and reads with plain `read(2)` on the caller's thread, so
/// closing it early (as `head` does) never races a reader.
final class RunningTicker: @unchecked Sendable {
  private let process: Spawned
  private var stdoutFD: Int32 = -1
  private var pending: [UInt8] = []
  private var lines: [String] = []
  private var stdinHandle: FileHandle?
  private var stdoutHandle: FileHandle?

  /// Shared with the stderr thread (which must not keep `self` alive).
  private final class Collected: Sendable {
    let stderrText = Mutex("")
    let stderrDone = DispatchSemaphore(value: 0)
    /// Signalled after each chunk of stderr (and at its end): `waitForStderr` wakes on it.
    let stderrChunk = DispatchSemaphore(value: 0)
  }
  private let collected = Collected()

  /// With `stdin`, the ticker's stdin is a pipe this object writes to (`send`, `closeStdin`);
  /// otherwise /dev/null. `program`: another ticker than the one under test (e.g. an installed
  /// copy).
  init(
    _ arguments: [String], environment: [String: String] = TickerProcess.cleanEnvironment(),
    stdin: Bool = false, program: String = TickerProcess.executable.path
  ) throws {
    process = try Spawned(
      program, arguments, environment: environment,
      standardInput: stdin ? .pipe : .null,
      standardOutput: .pipe, standardError: .pipe)
    stdinHandle = process.standardInput
    stdoutHandle = process.standardOutput
    stdoutFD = stdoutHandle?.fileDescriptor ?? -1
    guard let err = process.standardError else { throw POSIXError(.EBADF) }
    Thread.detachNewThread { [collected] in
      var bytes: [UInt8] = []
      while true {
        let data = err.availableData
        if data.isEmpty { break }
        bytes += data
        collected.stderrText.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
        collected.stderrChunk.signal()
      }
      collected.stderrDone.signal()
      collected.stderrChunk.signal()
    }
  }

  deinit {
    process.terminate()
  }

  /// Reads until at least `count` stdout lines arrived, stdout ends, or `seconds` pass (a hang
  /// guard, not a timing check).
  func waitForLines(_ count: Int, within seconds: Double = 30) -> [String] {
    let limit = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while lines.count < count, stdoutFD >= 0 {
      var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
      let remaining = Int32(max(0, limit.timeIntervalSinceNow) * 1000)
      if remaining == 0 { break }
      guard poll(&pfd, 1, remaining) > 0 else { continue }
      let n = read(stdoutFD, &buffer, buffer.count)
      if n <= 0 { break }
      pending += buffer[0..<n]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: pending[..<newline], as: UTF8.self))
        pending.removeSubrange(...newline)
      }
    }
    if lines.count < count { Issue.record("only \(lines.count) of \(count) lines arrived") }
    return lines
  }

  /// Reads stdout to its end (after the exit; `seconds` is a hang guard) and returns every line.
  func allLines(within seconds: Double = 30) -> [String] {
    let limit = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while stdoutFD >= 0, Date() < limit {
      var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, 100) > 0 else { continue }
      let n = read(stdoutFD, &buffer, buffer.count)
      if n <= 0 { break }
      pending += buffer[0..<n]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: pending[..<newline], as: UTF8.self))
        pending.removeSubrange(...newline)
      }
    }
    return lines
  }

  func signal(_ sig: Int32) { process.signal(sig) }

  /// From now on stdout is read and thrown away on a thread of its own, so that a ticker left
  /// running never blocks on a full pipe (`waitForLines` and `allLines` must not be used after).
  func discardStdout() {
    guard let handle = stdoutHandle else { return }
    stdoutFD = -1
    Thread.detachNewThread {
      while !handle.availableData.isEmpty {}
    }
  }

  /// How the ticker ended (an exit status or a signal); nil while it runs.
  var termination: Spawned.Termination? { process.termination }

  /// Writes `text` to the ticker's stdin (see `init(_:environment:stdin:)`).
  func send(_ text: String) {
    try? stdinHandle?.write(contentsOf: Array(text.utf8))
  }

  /// Closes the ticker's stdin: it sees the end of its input.
  func closeStdin() {
    try? stdinHandle?.close()
    stdinHandle = nil
  }

  /// stderr so far.
  var stderrSoFar: String { collected.stderrText.withLock { $0 } }

  /// Waits until stderr so far satisfies `done`, stderr ends, or `seconds` pass (a hang guard);
  /// stderr as it then is. Wakes on each chunk the ticker writes, not on a clock.
  func waitForStderr(within seconds: Double = 30, until done: (String) -> Bool) -> String {
    let limit = DispatchTime.now() + seconds
    while true {
      let text = stderrSoFar
      if done(text) { return text }
      if collected.stderrChunk.wait(timeout: limit) == .timedOut { return stderrSoFar }
      if collected.stderrDone.wait(timeout: .now()) == .success {
        collected.stderrDone.signal()
        return stderrSoFar
      }
    }
  }

  /// The process's resident set size in KiB (`VmRSS` in /proc), nil once it has exited.
  func residentKilobytes() -> Int? { statusField("VmRSS:") }

  /// The most resident memory the process has had so far, in KiB (`VmHWM`), nil once it exited.
  func peakResidentKilobytes() -> Int? { statusField("VmHWM:") }

  /// The files the process has mapped (from /proc/PID/maps), nil once it has exited.
  /// The process id while the ticker runs; nil once it has ended.
  var pid: Int32? { process.isRunning ? process.pid : nil }

  func mappedFiles() -> Set<String>? {
    guard process.isRunning,
      let maps = try? String(contentsOfFile: "/proc/\(process.pid)/maps", encoding: .utf8)
    else { return nil }
    return Set(
      maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } })
  }

  private func statusField(_ name: String) -> Int? {
    guard process.isRunning,
      let status = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }

  /// Closes our end of the ticker's stdout, as `head` does when it has enough.
  func closeStdout() {
    try? stdoutHandle?.close()
    stdoutHandle = nil
    stdoutFD = -1
  }

  /// Waits for the exit (bounded), returning the exit status (-1 when the ticker did not exit by
  /// itself: `termination` tells how it ended) and all of stderr.
  func finish(within seconds: Double = 30) -> (status: Int32, stderr: String) {
    var termination = process.waitForExit(within: seconds)
    if termination == nil {
      Issue.record("ticker did not exit within \(seconds) s")
      process.terminate()
      termination = process.waitForExit(within: 10)
    }
    _ = collected.stderrDone.wait(timeout: .now() + 5)
    return (termination?.status ?? -1, collected.stderrText.withLock { $0 })
  }
}

extension RunningTicker {
  func lines(_ count: Int, within seconds: Double = 30) async -> [String] {
    await offPool { self.waitForLines(count, within: seconds) }
  }

  func exit(within seconds: Double = 30) async -> (status: Int32, stderr: String) {
    await offPool { self.finish(within: seconds) }
  }
}

import Foundation
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Spawned {
  /// A child that ran to its end, and what it wrote.
  package struct Finished: Sendable {
    /// How it ended; nil only when it did not end even after SIGKILL.
    package var termination: Termination?
    /// It outlived the timeout and was killed with SIGKILL.
    package var timedOut: Bool
    /// Its stdout, when that was `.pipe`.
    package var standardOutput: [UInt8]
    /// Its stderr, when that was `.pipe`.
    package var standardError: [UInt8]

    package var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    package var errorText: String { String(decoding: standardError, as: UTF8.self) }
  }

  /// Runs a child to its end, reading its piped stdout and stderr to their ends (on threads of
  /// their own, never the concurrency pool's). `timeout` only guards against a hang: a child
  /// that outlives it is killed (`timedOut`).
  package static func run(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    directory: String? = nil, standardInput: IO = .null, standardOutput: IO = .pipe,
    standardError: IO = .pipe, timeout: Double = 60
  ) async throws(SpawnError) -> Finished {
    let child = try Spawned(
      executable, arguments, environment: environment, directory: directory, standardInput: standardInput,
      standardOutput: standardOutput, standardError: standardError)
    async let output = readToEnd(child.standardOutput)
    async let errors = readToEnd(child.standardError)
    var termination = await child.exited(within: timeout)
    let timedOut = termination == nil
    if timedOut {
      child.terminate()
      termination = await child.exited(within: 10)
    }
    return Finished(
      termination: termination, timedOut: timedOut, standardOutput: await output, standardError: await errors)
  }

  /// Everything `handle` delivers until its end (empty for nil), read on a thread of its own.
  package static func readToEnd(_ handle: FileHandle?) async -> [UInt8] {
    guard let handle else { return [] }
    return await withCheckedContinuation { continuation in
      DedicatedThread.start(stackBytes: 256 << 10) {
        continuation.resume(returning: readToEndBlocking(handle.fileDescriptor))
      }
    }
  }

  /// Reads `fd` until its end (or an error other than EINTR), blocking the calling thread.
  package static func readToEndBlocking(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += buffer[0..<count]
      } else if count < 0, errno == EINTR {
        continue
      } else {
        return bytes
      }
    }
  }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Spawned: children started with posix_spawn")
struct SpawnedTests {
  static let shell = "/bin/sh"

  @Test("the exit status comes back as it was", arguments: [Int32(0), 1, 2, 65, 69, 75, 255])
  func exitStatus(_ status: Int32) async throws {
    let run = try await Spawned.run(Self.shell, ["-c", "exit \(status)"])
    #expect(run.termination == .exited(status))
    #expect(run.termination?.status == status)
    #expect(!run.timedOut)
  }

  @Test("death by a signal is told apart from an exit status")
  func deathBySignal() async throws {
    let run = try await Spawned.run(Self.shell, ["-c", "kill -TERM $$"])
    #expect(run.termination == .signaled(SIGTERM))
    #expect(run.termination?.status == nil)
    let waiter = try Self.waiter()
    #expect(waiter.signal(SIGINT))
    #expect(await waiter.exited(within: 30) == .signaled(SIGINT))
    #expect(!waiter.signal(SIGKILL), "a reaped child is not signalled again (its pid may be reused)")
  }

  @Test("a child that does not end: the wait gives up, the child runs on until it is killed")
  func timeout() async throws {
    let child = try Self.waiter()
    #expect(await child.exited(within: 0.2) == nil)
    #expect(child.isRunning)
    child.terminate()
    #expect(await child.exited(within: 30) == .signaled(SIGKILL))
    #expect(!child.isRunning)
    // `run` kills what outlives its timeout and says so.
    let run = try await Spawned.run("/bin/cat", standardInput: .pipe, timeout: 0.2)
    #expect(run.timedOut)
    #expect(run.termination == .signaled(SIGKILL))
  }

  @Test("SIGSTOP is not an end; SIGCONT and SIGTERM then end it")
  func stopAndContinue() async throws {
    let child = try Self.waiter()
    #expect(child.signal(SIGSTOP))
    #expect(await child.exited(within: 0.3) == nil)
    #expect(child.signal(SIGCONT))
    #expect(child.signal(SIGTERM))
    #expect(await child.exited(within: 30) == .signaled(SIGTERM))
  }

  @Test("the child gets exactly the environment given")
  func environment() async throws {
    let run = try await Spawned.run("/usr/bin/env", environment: ["ONLY": "this value", "EMPTY": ""])
    #expect(run.termination == .exited(0))
    #expect(Set(run.outputText.split(separator: "\n")) == ["ONLY=this value", "EMPTY="])
  }

  @Test("the child runs in the working directory given")
  func workingDirectory() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = try await Spawned.run(Self.shell, ["-c", "pwd -P"], directory: directory.path)
    #expect(run.termination == .exited(0))
    #expect(run.outputText == directory.resolvingSymlinksInPath().path + "\n")
    #expect(throws: SpawnError.self) {
      try Spawned(Self.shell, ["-c", "true"], directory: directory.path + "/missing")
    }
  }

  @Test("stdout and stderr pipes deliver every byte and then their end")
  func outputPipes() async throws {
    let run = try await Spawned.run(
      Self.shell, ["-c", "printf 'out\\0put'; printf 'err' >&2; head -c 300000 /dev/zero"])
    #expect(run.termination == .exited(0))
    #expect(Array(run.standardOutput.prefix(7)) == Array("out\0put".utf8))
    #expect(run.standardOutput.count == 7 + 300_000)
    #expect(run.errorText == "err")
    let merged = try await Spawned.run(
      Self.shell, ["-c", "printf a; printf b >&2; printf c"], standardError: .standardOutput)
    #expect(merged.outputText == "abc")
  }

  @Test("a stdin pipe: the child reads what is written, and its end once it is closed")
  func inputPipe() async throws {
    let child = try Spawned("/bin/cat", standardInput: .pipe, standardOutput: .pipe)
    let output = Task { await Spawned.readToEnd(child.standardOutput) }
    try child.standardInput?.write(contentsOf: Data("hello\nworld".utf8))
    try child.standardInput?.close()
    #expect(String(decoding: await output.value, as: UTF8.self) == "hello\nworld")
    #expect(await child.exited(within: 30) == .exited(0))
  }

  @Test("stdin, stdout and stderr can be /dev/null, a file or a descriptor of ours")
  func otherStreams() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(UUID())").path
    defer { unlink(path) }
    let toFile = try await Spawned.run(
      Self.shell, ["-c", "cat; echo written"], standardInput: .null, standardOutput: .file(path))
    #expect(toFile.termination == .exited(0))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "written\n")
    let fromFile = try await Spawned.run("/bin/cat", standardInput: .file(path))
    #expect(fromFile.outputText == "written\n")
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    defer { close(fds[0]) }
    let toDescriptor = try await Spawned.run(
      Self.shell, ["-c", "printf mine"], standardOutput: .descriptor(fds[1]))
    close(fds[1])
    #expect(toDescriptor.termination == .exited(0))
    #expect(Spawned.readToEndBlocking(fds[0]) == Array("mine".utf8))
  }

  @Test("no descriptor of the test process leaks into the child")
  func noDescriptorLeaks() async throws {
    // A descriptor without close-on-exec, and a Foundation pipe: both open while the child starts.
    let plain = open("/dev/null", O_RDONLY)
    try #require(plain > 2)
    defer { close(plain) }
    let foundationPipe = Pipe()
    let run = try await Spawned.run(Self.shell, ["-c", "ls -l /proc/$$/fd"])
    #expect(run.termination == .exited(0))
    // "lr-x------ 1 root root 64 Dec  1 03:00 0 -> /dev/null"
    let open = run.outputText.split(separator: "\n").filter { $0.contains(" -> ") }.compactMap { line in
      line.components(separatedBy: " -> ").first?.split(separator: " ").last.flatMap { Int32($0) }
    }
    #expect(Set(open) == [0, 1, 2], "\(run.outputText)")
    _ = foundationPipe
  }

  @Test("the child starts with no signal blocked or ignored, and in a process group of its own")
  func signalsAndGroup() async throws {
    let run = try await Spawned.run("/bin/cat", ["/proc/self/status"])
    let fields = Dictionary(
      run.outputText.split(separator: "\n").map { line in
        let parts = line.split(separator: ":", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
      }, uniquingKeysWith: { first, _ in first })
    // Signals 1–31 (32 and 33 are glibc's own, which sigfillset leaves out).
    let standard: UInt64 = 0x7FFF_FFFF
    let blocked = UInt64(fields["SigBlk"] ?? "", radix: 16)
    let ignored = UInt64(fields["SigIgn"] ?? "", radix: 16)
    #expect(blocked.map { $0 & standard } == 0, "SigBlk \(fields["SigBlk"] ?? "-")")
    #expect(ignored.map { $0 & standard } == 0, "SigIgn \(fields["SigIgn"] ?? "-")")
    let own = try Self.waiter()
    #expect(getpgid(own.pid) == own.pid)
    let shared = try Self.waiter(ownProcessGroup: false)
    #expect(getpgid(shared.pid) == getpgrp())
  }

  @Test("a child that cannot start throws, naming the command and the error")
  func spawnFailure() async throws {
    do {
      _ = try Spawned("/nonexistent/program", ["x"])
      Issue.record("spawned a missing program")
    } catch {
      #expect(error.code == ENOENT)
      #expect(error.description.hasPrefix("cannot start /nonexistent/program x: posix_spawn: "))
    }
  }

  @Test("no zombie remains: a child that ends is reaped unasked; a dropped handle kills and reaps")
  func noZombie() async throws {
    // Reaped before `exited` answers: the pid and its /proc entry are gone by then.
    let quick = try Spawned("/bin/true")
    #expect(await quick.exited(within: 30) == .exited(0))
    #expect(Self.isGone(quick.pid))
    var pid: pid_t = 0
    var reaping: Spawned.Reaping?
    do {
      let dropped = try Self.waiter()
      pid = dropped.pid
      reaping = dropped.reaping
      #expect(!Self.isGone(pid))
    }
    #expect(await reaping?.reaped(within: 30) == .signaled(SIGKILL))
    #expect(Self.isGone(pid), "/proc/\(pid) remains")
  }

  /// A child that never ends on its own: `cat` reading a stdin pipe whose other end the handle
  /// holds open. It waits on that pipe, not on a timer, so a starved machine cannot end it early.
  static func waiter(ownProcessGroup: Bool = true) throws(SpawnError) -> Spawned {
    try Spawned("/bin/cat", standardInput: .pipe, standardOutput: .null, ownProcessGroup: ownProcessGroup)
  }

  /// Neither running nor a zombie of ours: `waitpid` knows no such child and /proc has no entry.
  static func isGone(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    let waited = waitpid(pid, &status, WNOHANG)
    return waited == -1 && errno == ECHILD && !FileManager.default.fileExists(atPath: "/proc/\(pid)")
  }
}

import Foundation
import Synchronization
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with `posix_spawn`, for tests: the ticker, Python and websocat peers,
/// nats-server, openssl, probes.
///
/// Not Foundation's `Process`: on Linux (6.3.1) its `run()` over-reads `/proc/self/fd` entry
/// names (swift-corelibs-foundation#5472) and killed whole test runs with SIGSEGV.
///
/// What the child gets: exactly the descriptors 0, 1 and 2 asked for (every other descriptor of
/// the test process is closed in the child, and the pipes made here are close-on-exec as well,
/// so no other test's pipe or socket leaks into it), no signal blocked and every signal handler
/// at its default (the test process blocks and ignores some), the environment given (or this
/// process's), its own process group unless told otherwise (as Foundation did: a Ctrl-C meant
/// for `swift test` does not reach it).
///
/// Every child is reaped as soon as it ends, by a thread of its own that waits for it: no zombie
/// remains, even if a test never waits. Dropping the handle kills a child that still runs.
package final class Spawned: Sendable {
  /// What a standard descriptor of the child is.
  package enum IO: Sendable {
    /// This process's own descriptor (e.g. the test run's stderr).
    case inherit
    /// `/dev/null`.
    case null
    /// A pipe whose other end is `standardInput`/`standardOutput`/`standardError`.
    case pipe
    /// A file, created or truncated (for stdin: opened for reading).
    case file(String)
    /// A descriptor of this process, which stays the caller's to close.
    case descriptor(Int32)
    /// For stderr: the same as the child's stdout (`2>&1`).
    case standardOutput
  }

  /// How a child ended.
  package enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
    /// Someone else reaped it, so how it ended is unknown (SIGCHLD ignored, a `waitpid(-1)`).
    case unknown

    /// The exit status; nil when it did not exit by itself.
    package var status: Int32? {
      if case .exited(let status) = self { return status }
      return nil
    }

    package var description: String {
      switch self {
      case .exited(let status): "exit status \(status)"
      case .signaled(let signal): "killed by signal \(signal)"
      case .unknown: "ended (reaped elsewhere)"
      }
    }
  }

  package let pid: pid_t
  /// The writing end of the child's stdin, when it is `.pipe`.
  package let standardInput: FileHandle?
  /// The reading end of the child's stdout, when it is `.pipe`.
  package let standardOutput: FileHandle?
  /// The reading end of the child's stderr, when it is `.pipe`.
  package let standardError: FileHandle?
  /// `executable` and `arguments`, for messages.
  package let command: [String]

  private let state: State

  /// Shared with the reaping thread, which must not keep the handle alive.
  fileprivate final class State: Sendable {
    let pid: pid_t
    /// nil while the child has not been reaped. Reaping happens under this lock, and so does
    /// every signal: a signal never reaches another process that reused the pid.
    let termination = Mutex<Termination?>(nil)
    let ended = DispatchSemaphore(value: 0)

    init(pid: pid_t) { self.pid = pid }

    /// Waits (without reaping) until the child has ended, then reaps it.
    func reapWhenEnded() {
      var info = siginfo_t()
      while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
      termination.withLock { termination in
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid {
          termination = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        } else {
          termination = .unknown
        }
      }
      ended.signal()
    }
  }

  /// Starts `executable` (a path: no PATH search) with `arguments` (argv[0] is `executable`).
  ///
  /// - Parameters:
  ///   - environment: the child's whole environment; nil passes this process's.
  ///   - directory: the child's working directory; nil keeps this process's.
  ///   - ownProcessGroup: the child leads a new process group (`POSIX_SPAWN_SETPGROUP`).
  package init(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    directory: String? = nil, standardInput: IO = .null, standardOutput: IO = .inherit,
    standardError: IO = .inherit, ownProcessGroup: Bool = true
  ) throws(SpawnError) {
    command = [executable] + arguments
    ignoringBrokenPipes
    var actions = SpawnActions()
    defer { actions.destroy() }
    // Our ends of the pipes, and the child's ends (closed here once the child has its copies).
    var parentEnds: [Int32?] = [nil, nil, nil]
    var childEnds: [Int32] = []
    func closeAll() { (parentEnds.compactMap { $0 } + childEnds).forEach { _ = close($0) } }
    for (target, io) in [standardInput, standardOutput, standardError].enumerated() {
      let target = Int32(target)
      let failure: Int32
      switch io {
      case .inherit: failure = 0
      case .null:
        failure = actions.open(target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY)
      case .file(let path):
        failure = actions.open(target, path, target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC)
      case .descriptor(let fd): failure = actions.dup2(fd, target)
      case .standardOutput: failure = actions.dup2(1, target)
      case .pipe:
        guard let (read, write) = Self.cloexecPipe() else {
          closeAll()
          throw SpawnError(command: command, operation: "pipe", code: errno)
        }
        parentEnds[Int(target)] = target == 0 ? write : read
        childEnds.append(target == 0 ? read : write)
        failure = actions.dup2(target == 0 ? read : write, target)
      }
      if failure != 0 {
        closeAll()
        throw SpawnError(command: command, operation: "file actions for descriptor \(target)", code: failure)
      }
    }
    if let directory, case let failure = actions.chdir(directory), failure != 0 {
      closeAll()
      throw SpawnError(command: command, operation: "chdir \(directory)", code: failure)
    }
    if case let failure = actions.closeFrom(3), failure != 0 {
      closeAll()
      throw SpawnError(command: command, operation: "closing descriptors from 3", code: failure)
    }
    var attributes = SpawnAttributes(ownProcessGroup: ownProcessGroup)
    defer { attributes.destroy() }

    let environment = environment ?? ProcessInfo.processInfo.environment
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = actions.spawn(&pid, executable, attributes: &attributes, argv, envp)
    childEnds.forEach { _ = close($0) }
    guard spawned == 0 else {
      parentEnds.compactMap { $0 }.forEach { _ = close($0) }
      throw SpawnError(command: command, operation: "posix_spawn", code: spawned)
    }
    self.pid = pid
    let handles = parentEnds.map { $0.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) } }
    self.standardInput = handles[0]
    self.standardOutput = handles[1]
    self.standardError = handles[2]
    let state = State(pid: pid)
    self.state = state
    DedicatedThread.start(stackBytes: 256 << 10) { state.reapWhenEnded() }
  }

  /// Kills a child that still runs (it is reaped by its waiting thread).
  deinit { terminate() }

  /// How the child ended; nil while it runs (or has ended a moment ago and is being reaped).
  package var termination: Termination? { state.termination.withLock { $0 } }

  package var isRunning: Bool { termination == nil }

  /// Sends `signal` to the child (with `toGroup`, to its process group) unless it has ended.
  /// False when it had ended (or the signal could not be sent).
  @discardableResult
  package func signal(_ signal: Int32, toGroup: Bool = false) -> Bool {
    state.termination.withLock { termination in
      termination == nil && send(signal, to: toGroup ? -pid : pid)
    }
  }

  /// SIGKILL, unless the child has ended; it does not wait (it runs in `defer` blocks of async
  /// tests, on the concurrency pool). The child's waiting thread reaps it.
  package func terminate() { signal(SIGKILL) }

  /// Waits at most `seconds` for the child to end; nil when it still runs. Blocks the calling
  /// thread: from async code use `exited(within:)`.
  package func waitForExit(within seconds: Double) -> Termination? { reaping.wait(within: seconds) }

  /// `waitForExit(within:)` on a thread of its own, never one of the concurrency pool's.
  package func exited(within seconds: Double) async -> Termination? {
    await reaping.reaped(within: seconds)
  }

  /// The child's reaping, which outlives this handle: a test can drop the handle (which kills
  /// the child) and still wait for the child to be reaped.
  package var reaping: Reaping { Reaping(state: state) }

  package struct Reaping: Sendable {
    fileprivate let state: State

    /// Waits at most `seconds` until the child has ended and been reaped (its pid and /proc
    /// entry are gone then); nil when it still runs. Blocks the calling thread.
    package func wait(within seconds: Double) -> Termination? {
      guard state.ended.wait(timeout: .now() + seconds) == .success else { return nil }
      state.ended.signal()  // for the next waiter
      return state.termination.withLock { $0 }
    }

    /// `wait(within:)` on a thread of its own, never one of the concurrency pool's.
    package func reaped(within seconds: Double) async -> Termination? {
      await withCheckedContinuation { continuation in
        DedicatedThread.start(stackBytes: 256 << 10) { continuation.resume(returning: wait(within: seconds)) }
      }
    }
  }

  /// A pipe whose two ends are close-on-exec, made atomically (`pipe2`), so a child another
  /// thread spawns meanwhile cannot inherit it.
  private static func cloexecPipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    guard GlibcExtras.pipe2(&fds, O_CLOEXEC) == 0 else { return nil }
    return (fds[0], fds[1])
  }
}

/// Writing to a pipe whose reader died must not kill the test process (a global: set once).
private let ignoringBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

private func send(_ signal: Int32, to pid: pid_t) -> Bool { kill(pid, signal) == 0 }

/// `posix_spawn` could not start a child (or prepare to).
package struct SpawnError: Error, CustomStringConvertible {
  package var command: [String]
  package var operation: String
  /// The errno value.
  package var code: Int32

  package var description: String {
    "cannot start \(command.joined(separator: " ")): \(operation): \(String(cString: strerror(code)))"
  }
}

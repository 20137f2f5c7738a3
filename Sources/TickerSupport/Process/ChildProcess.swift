#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A command run through `/bin/sh -c`, in a process group of its own (so that a Ctrl-C at the
/// terminal reaches the ticker, which decides, and so that the whole group can be ended), with
/// stdin from /dev/null and stdout and stderr on `output` (the ticker's stderr unless told
/// otherwise): nothing it prints can mix into the prices on stdout. (The ticker's sockets are
/// close-on-exec: the command inherits none of them.)
public struct ChildProcess: Sendable {
  public enum SpawnError: Error, Equatable, CustomStringConvertible {
    case failed(errno: Int32)

    public var description: String {
      switch self {
      case .failed(let code): "cannot start /bin/sh: \(Errno.text(code))"
      }
    }
  }

  /// How a child ended.
  public enum Ending: Sendable, Equatable {
    case exited(Int32)
    case signalled(Int32)
  }

  public let pid: pid_t

  /// Starts `/bin/sh -c command` with exactly `environment` (each `NAME=value`). The command text
  /// is passed as one argument and never built from data: values go in the environment.
  public static func shell(
    _ command: String, environment: [String], output: Int32 = 2
  ) throws(SpawnError) -> ChildProcess {
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #else
      var actions: posix_spawn_file_actions_t?
      var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, output, 2)
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Default signal handling in the child, whatever the ticker ignores or catches.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let arguments = ["/bin/sh", "-c", command]
    var pid = pid_t()
    let status = withCStrings(arguments) { argv in
      withCStrings(environment) { envp in
        posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
      }
    }
    guard status == 0 else { throw .failed(errno: status) }
    return ChildProcess(pid: pid)
  }

  /// Blocks until the child ends; call it from a thread that may block.
  public func wait() -> Ending {
    var status: Int32 = 0
    do throws(Errno) {
      _ = try POSIX.retryingInterrupted { waitpid(pid, &status, 0) }
    } catch {
      return .exited(-1)
    }
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
    let low = status & 0x7F
    return low == 0 ? .exited((status >> 8) & 0xFF) : .signalled(low)
  }

  /// Sends `signal` to the child's whole process group (the shell and what it started).
  public func signalGroup(_ signal: Int32) {
    _ = kill(-pid, signal)
  }

  private static func withCStrings<R>(
    _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
  ) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}

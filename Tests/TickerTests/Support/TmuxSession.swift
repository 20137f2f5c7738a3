import Foundation
import Synchronization
import Testing

/// A terminal the tests can look at: a detached tmux session of a fixed size, on a tmux server
/// of its own (a private socket, no configuration file), running an interactive `sh` (its
/// prompt `$ `, or `# ` for root: `isPrompt`). Tests type into it (`type`, `keys`), resize it, and read the screen back
/// (`screen()`, `capture-pane -p`) — waiting for what they expect with bounded polling of the
/// screen (`waitForScreen`), never with sleeps. `$T` in the shell is the built `ticker`.
///
/// tmux comes from `Scripts/setup-test-env.sh`. Where it is missing the tests that need it are
/// skipped with `skipReason`, unless `TICKER_REQUIRE_TMUX=1` (set by `.ci/run`) or `CI` is set:
/// then a missing tmux is a failure (`TmuxTests`).
final class TmuxSession: @unchecked Sendable {
  // `@unchecked`: immutable after init; each method runs its own tmux process.
  static let executable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
      let candidate = "\(directory)/tmux"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  static var isAvailable: Bool { executable != nil }
  static var isRequired: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment["TICKER_REQUIRE_TMUX"] == "1" || !(environment["CI"] ?? "").isEmpty
  }

  static let skipReason: Comment = """
    tmux is not installed (bash Scripts/setup-test-env.sh installs it); the board is tested \
    as a person sees it only inside tmux
    """

  /// Whether a screen line is the shell's prompt with nothing typed (trailing spaces dropped).
  static func isPrompt(_ line: String?) -> Bool { line == "$" || line == "#" }

  private let socket: String
  let target = "board"

  /// Starts the session: `columns` × `rows`, the shell's environment clean but for `extra`.
  init(columns: Int, rows: Int, environment extra: [String: String] = [:]) throws {
    socket = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-tmux-\(UUID()).sock").path
    var arguments = [
      "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", target,
      "-e", "T=\(TickerProcess.executable.path)",
    ]
    for (key, value) in extra.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
    arguments.append("sh -i")
    let (status, output) = try run(arguments, server: true)
    guard status == 0 else { throw TmuxError.failed("tmux new-session: \(output)") }
  }

  /// A session for `body`, ended (its tmux server killed) when `body` returns or throws.
  ///
  /// In `body`, keep closures out of `#expect(…)`: with Swift 6.3.1, a closure written inside
  /// `#expect(await tmux.waitForScreen { … } != nil)` in a closure was seen standing in for the
  /// next `waitForScreen`'s closure (that condition was never called). Assign, then expect.
  static func with<T>(
    columns: Int, rows: Int, environment: [String: String] = [:], _ body: (TmuxSession) async throws -> T
  ) async throws -> T {
    let session = try TmuxSession(columns: columns, rows: rows, environment: environment)
    do {
      let result = try await body(session)
      await session.close()
      return result
    } catch {
      await session.close()
      throw error
    }
  }

  /// Kills the session's tmux server (and the shell and whatever runs in it). Idempotent.
  func close() async {
    let first = closed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard first else { return }
    await offPool {
      _ = try? self.run(["kill-server"])
      try? FileManager.default.removeItem(atPath: self.socket)
    }
  }

  private let closed = Mutex(false)

  deinit {
    // Only if `close()` was never called (a session made without `with`).
    if !closed.withLock({ $0 }) {
      _ = try? run(["kill-server"])
      try? FileManager.default.removeItem(atPath: socket)
    }
  }

  /// Waits for the shell's first prompt.
  func waitForPrompt() async -> Bool {
    await waitForScreen(isReady) != nil
  }

  @Sendable private func isReady(_ screen: [String]) -> Bool { Self.isPrompt(screen.first) }

  enum TmuxError: Error { case failed(String) }

  /// Closes every descriptor above 2, then runs the rest of the arguments: the tmux server
  /// started by `new-session` lives on, and would otherwise keep whatever the test process had
  /// open (other tests' pipes and sockets: a pipe would never see its end).
  static let closingDescriptors = [
    "/bin/bash", "-c",
    #"for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; exec "$@""#,
    "tmux",
  ]

  /// Runs `tmux -S <socket> <arguments>` to the end: its status and output. With `server`, it
  /// starts the tmux server, which must not inherit the test process's descriptors.
  ///
  /// Spawned with `posix_spawn`, its output going to a file (no pipe whose end another process
  /// could hold open), and not with Foundation's `Process`, whose wait was seen spinning.
  @discardableResult
  func run(_ arguments: [String], server: Bool = false) throws -> (status: Int32, output: String) {
    guard let tmux = Self.executable else { throw TmuxError.failed("tmux is not installed") }
    let executable = server ? Self.closingDescriptors[0] : tmux
    let outputPath = socket + ".\(UUID()).out"
    defer { unlink(outputPath) }
    var environment = TickerProcess.cleanEnvironment()
    environment["TMUX"] = nil
    environment["TERM"] = "xterm-256color"
    let command =
      (server ? Self.closingDescriptors : []) + [tmux, "-S", socket, "-f", "/dev/null"] + arguments
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // The test process blocks most signals in its threads (Dispatch); a child inherits that
    // mask, and a tmux server that cannot receive SIGTERM never ends (`kill-server` is a
    // SIGTERM to itself). Children start with no signal blocked and every handler default.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw TmuxError.failed("cannot start tmux: errno \(spawned)") }
    // Bounded: a tmux command that never ends is killed and reported.
    var status: Int32 = 0
    let limit = Date().addingTimeInterval(30)
    let tick = DispatchSemaphore(value: 0)
    while waitpid(pid, &status, WNOHANG) == 0 {
      if Date() > limit {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw TmuxError.failed("tmux \(arguments) did not end within 30 s")
      }
      _ = tick.wait(timeout: .now() + 0.002)
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let exited = status & 0x7F == 0
    return (exited ? (status >> 8) & 0xFF : -1, output)
  }

  /// Types `text` into the shell and presses Enter.
  func type(_ text: String) async {
    await offPool { _ = try? self.run(["send-keys", "-t", self.target, "-l", "--", text]) }
    await keys("Enter")
  }

  /// Presses keys, in tmux's names (`C-c`, `Enter`).
  func keys(_ names: String...) async {
    await offPool { _ = try? self.run(["send-keys", "-t", self.target] + names) }
  }

  func resize(columns: Int, rows: Int) async {
    await offPool {
      _ = try? self.run(["resize-window", "-t", self.target, "-x", "\(columns)", "-y", "\(rows)"])
    }
  }

  /// The visible screen, one string per row (tmux drops trailing spaces).
  func screen() -> [String] {
    let output = (try? run(["capture-pane", "-p", "-t", target]).output) ?? ""
    return output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// The visible screen with its attributes as escape sequences (`capture-pane -e`).
  func styledScreen() async -> String {
    await offPool { (try? self.run(["capture-pane", "-p", "-e", "-t", self.target]).output) ?? "" }
  }

  /// A tmux format about the pane: `#{alternate_on}` (1 on the alternate screen),
  /// `#{cursor_flag}` (1 when the cursor is visible).
  func display(_ format: String) async -> String {
    await offPool {
      let output = (try? self.run(["display-message", "-p", "-t", self.target, format]).output) ?? ""
      return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// Reads the screen until `condition` holds (returning that screen) or `seconds` pass (nil:
  /// a hang guard, not a timing check). `seen` gets every screen read on the way.
  func waitForScreen(
    within seconds: Double = 30, seen: (@Sendable ([String]) -> Void)? = nil,
    _ condition: @escaping @Sendable ([String]) -> Bool
  ) async -> [String]? {
    await offPool {
      let limit = Date().addingTimeInterval(seconds)
      let tick = DispatchSemaphore(value: 0)
      repeat {
        let screen = self.screen()
        seen?(screen)
        if condition(screen) { return screen }
        _ = tick.wait(timeout: .now() + 0.05)
      } while Date() < limit
      return nil
    }
  }
}

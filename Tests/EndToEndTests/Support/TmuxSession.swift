import Foundation
import Synchronization
import TestSupport
import Testing

/// A terminal the tests can look at: a detached tmux session of a fixed size, on a tmux server
/// of its own (a private socket, no configuration file), running an interactive `sh` (its
/// prompt `$ `, or `# ` for root: `isPrompt`). Tests type into it (`type`, `keys`), resize it, and read the screen back
/// (`screen()`, `capture-pane -p`) — waiting for what they expect with bounded polling of the
/// screen (`waitForScreen`), never with sleeps. `$T` in the shell is the built `ticker`.
///
/// tmux comes from `Scripts/setup-test-env.sh`: suites using it declare `.requires(.tmux)`.
final class TmuxSession: @unchecked Sendable {
  // `@unchecked`: immutable after init; each method runs its own tmux process.
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

  /// Runs `tmux -S <socket> <arguments>` to the end: its status and output (-1 when it did not
  /// exit by itself). With `server`, it starts the tmux server, which keeps none of the test
  /// process's descriptors (other tests' pipes and sockets: a pipe would never see its end):
  /// `Spawned` closes them in every child.
  ///
  /// Its output goes to a file (no pipe whose end another process, the server, could hold open).
  @discardableResult
  func run(_ arguments: [String], server: Bool = false) throws -> (status: Int32, output: String) {
    try TestTools.require([.tmux])
    guard let tmux = TestTools.tmux else { throw TmuxError.failed("tmux is not installed") }
    let outputPath = socket + ".\(UUID()).out"
    defer { unlink(outputPath) }
    var environment = TickerProcess.cleanEnvironment()
    environment["TMUX"] = nil
    environment["TERM"] = "xterm-256color"
    // A tmux server that could not receive SIGTERM would never end (`kill-server` is a SIGTERM
    // to itself): `Spawned` starts children with no signal blocked and every handler default.
    let child: Spawned
    do {
      child = try Spawned(
        tmux, ["-S", socket, "-f", "/dev/null"] + arguments, environment: environment, standardInput: .null,
        standardOutput: .file(outputPath), standardError: .standardOutput, ownProcessGroup: false)
    } catch {
      throw TmuxError.failed("\(error)")
    }
    // Bounded: a tmux command that never ends is killed and reported.
    guard let termination = child.waitForExit(within: 30) else {
      child.terminate()
      _ = child.waitForExit(within: 10)
      throw TmuxError.failed("tmux \(arguments) did not end within 30 s")
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return (termination.status ?? -1, output)
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

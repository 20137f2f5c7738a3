import Dispatch
import FeedRuntime
import Synchronization
import TickerSupport
import Venues

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--on-alert CMD`: runs CMD through `/bin/sh -c` each time an alert fires, the alert in its
/// environment (`TICKER_ALERT`, `TICKER_PROVIDER`, `TICKER_SYMBOL`, `TICKER_PRICE`,
/// `TICKER_TIME`). Nothing from a server ever becomes part of the command text. It never blocks
/// the prices: a command runs on its own while they go on; at most one runs per condition, and
/// an alert of a condition whose command is still running waits, the latest replacing an earlier
/// one that waited. A failing or slow command is reported on stderr.
public final class AlertCommand: Sendable {
  /// One firing as the command sees it: the values of its environment.
  public struct Alert: Sendable, Equatable {
    public var condition: String
    public var provider: String
    public var symbol: String
    public var price: String
    public var time: String

    public init(condition: String, provider: String, symbol: String, price: String, time: String) {
      self.condition = condition
      self.provider = provider
      self.symbol = symbol
      self.price = price
      self.time = time
    }

    public init(_ firing: AlertBook.Firing, provider: String) {
      self.init(
        condition: firing.rule.written, provider: provider, symbol: firing.quote.symbol,
        price: firing.price.text, time: UTCTimestamp.string(milliseconds: firing.quote.time))
    }

    var variables: [String] {
      [
        "TICKER_ALERT=\(condition)", "TICKER_PROVIDER=\(provider)", "TICKER_SYMBOL=\(symbol)",
        "TICKER_PRICE=\(price)", "TICKER_TIME=\(time)",
      ].map { $0.replacingNUL() }
    }
  }

  private struct Slot {
    /// A command of this condition is running or about to.
    var busy = false
    var running: ChildProcess?
    var waiting: Alert?
  }

  private struct State {
    var slots: [String: Slot] = [:]
    var finishing = false
    /// Ended by `finish`, which said so already.
    var ended: Set<String> = []
    var notRun = 0
  }

  private let command: String
  private let environment: [String]
  private let diagnostics: Diagnostics
  private let slowAfter: Duration
  /// The board holds stderr while it draws: the command's output then goes through
  /// `diagnostics`, a line at a time, escaped, instead of straight to stderr.
  private let throughDiagnostics: Bool
  private let state = Mutex(State())

  /// - Parameters:
  ///   - environment: the ticker's own; the variables holding a secret (the API token) are left
  ///     out, since the command has no need of them.
  ///   - slowAfter: a command still running this long after it started is reported, once.
  public init(
    command: String, environment: [String: String], diagnostics: Diagnostics,
    slowAfter: Duration = .seconds(10),
    throughDiagnostics: Bool = false
  ) {
    self.command = command
    self.throughDiagnostics = throughDiagnostics
    self.diagnostics = diagnostics
    self.slowAfter = slowAfter
    let secrets = Set(diagnostics.secrets)
    let replaced: Set = ["TICKER_ALERT", "TICKER_PROVIDER", "TICKER_SYMBOL", "TICKER_PRICE", "TICKER_TIME"]
    let keys = Set(ProviderCatalog.tokenVariables)
    self.environment = environment.filter { name, value in
      !keys.contains(name) && !secrets.contains(value) && !replaced.contains(name)
        && !name.contains("=") && !name.contains("\0") && !value.contains("\0")
    }.map { "\($0.key)=\($0.value)" }.sorted()
  }

  /// Runs the command for `alert`, or has it wait for the condition's running one. Returns at once.
  public func fire(_ alert: Alert) {
    let start: Bool = state.withLock { state in
      guard !state.finishing else {
        state.notRun += 1
        return false
      }
      if state.slots[alert.condition]?.busy == true {
        state.slots[alert.condition]?.waiting = alert
        return false
      }
      state.slots[alert.condition, default: Slot()].busy = true
      return true
    }
    if start { launch(alert) }
  }

  /// Lets no new command start and waits up to `limit` for the running ones; any still running
  /// then is ended (SIGTERM to its process group, SIGKILL a second later) and reported.
  public func finish(within limit: Duration) async {
    let dropped = state.withLock { state in
      state.finishing = true
      let waiting = state.slots.values.filter { $0.waiting != nil }.count
      for key in state.slots.keys { state.slots[key]?.waiting = nil }
      return waiting + state.notRun
    }
    if dropped > 0 {
      diagnostics.warning("\(dropped) alert(s) did not run --on-alert: the run ended first")
    }
    await waitForRunning(within: limit)
    let left = running()
    guard !left.isEmpty else { return }
    state.withLock { $0.ended.formUnion(left.map(\.0)) }
    for (condition, child) in left {
      diagnostics.warning(
        "the --on-alert command for \(condition) was still running when the run ended "
          + "(after \(FailureText.seconds(limit))); ending it")
      child.signalGroup(SIGTERM)
    }
    await waitForRunning(within: .seconds(1))
    for (_, child) in running() { child.signalGroup(SIGKILL) }
  }

  /// Returns once no command runs, or after `limit`.
  private func waitForRunning(within limit: Duration) async {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !running().isEmpty, clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  private func running() -> [(String, ChildProcess)] {
    state.withLock { state in state.slots.compactMap { key, slot in slot.running.map { (key, $0) } } }
  }

  /// Starts the command for `alert`, whose condition's slot is busy for it.
  private func launch(_ alert: Alert) {
    let condition = alert.condition
    let child: ChildProcess
    do {
      child = try spawn(alert)
    } catch {
      diagnostics.warning("--on-alert for \(condition): \(error)")
      if let next = ended(condition) { launch(next) }
      return
    }
    state.withLock { $0.slots[condition]?.running = child }
    DispatchQueue.global().asyncAfter(deadline: .now() + slowAfter.seconds) { [self] in
      let still = state.withLock { $0.slots[condition]?.running?.pid == child.pid }
      if still {
        diagnostics.warning(
          "the --on-alert command for \(condition) has run for \(FailureText.seconds(slowAfter)); "
            + "alerts for it wait until it ends")
      }
    }
    DedicatedThread.start(stackBytes: 128 << 10) { [self] in
      let ending = child.wait()
      report(ending, condition: condition)
      if let next = ended(condition) { launch(next) }
    }
  }

  private func spawn(_ alert: Alert) throws(ChildProcess.SpawnError) -> ChildProcess {
    guard throughDiagnostics else {
      return try ChildProcess.shell(command, environment: environment + alert.variables)
    }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .failed(errno: errno) }
    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[1]) }
    do {
      let child = try ChildProcess.shell(command, environment: environment + alert.variables, output: ends[1])
      DedicatedThread.start(stackBytes: 128 << 10) { [diagnostics, reader = ends[0]] in
        Self.forwardLines(from: reader, to: diagnostics)
      }
      return child
    } catch {
      close(ends[0])
      throw error
    }
  }

  /// Each line the command writes as a line of the ticker's, until the command (and whatever it
  /// left running) closes its output.
  private static func forwardLines(from fd: Int32, to diagnostics: Diagnostics) {
    defer { close(fd) }
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      guard
        let count = try? POSIX.retryingInterrupted({
          buffer.withUnsafeMutableBytes { POSIX.readDescriptor(fd, $0.baseAddress, $0.count) }
        }), count > 0
      else { break }
      pending += buffer[0..<count]
      while let newline = pending.firstIndex(of: 0x0A) {
        diagnostics.note("--on-alert: " + String(decoding: pending[..<newline], as: UTF8.self))
        pending.removeSubrange(...newline)
      }
      // A line without an end is shown in pieces rather than held without bound.
      if pending.count > Diagnostics.maximumLineBytes {
        diagnostics.note("--on-alert: " + String(decoding: pending, as: UTF8.self))
        pending.removeAll()
      }
    }
    if !pending.isEmpty { diagnostics.note("--on-alert: " + String(decoding: pending, as: UTF8.self)) }
  }

  /// The condition's command ended: the alert that waited for it, which keeps the slot busy, or
  /// nil and the slot free.
  private func ended(_ condition: String) -> Alert? {
    state.withLock { state in
      state.slots[condition]?.running = nil
      guard !state.finishing, let next = state.slots[condition]?.waiting else {
        state.slots[condition]?.busy = false
        return nil
      }
      state.slots[condition]?.waiting = nil
      return next
    }
  }

  private func report(_ ending: ChildProcess.Ending, condition: String) {
    guard !state.withLock({ $0.ended.contains(condition) }) else { return }
    switch ending {
    case .exited(0): break
    case .exited(let status):
      diagnostics.warning("the --on-alert command for \(condition) exited with status \(status)")
    case .signalled(let signal):
      diagnostics.warning("the --on-alert command for \(condition) was ended by signal \(signal)")
    }
  }
}

extension String {
  /// A C string ends at NUL: what follows would be lost silently, so it is shown instead.
  fileprivate func replacingNUL() -> String {
    contains("\0") ? split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "\\0") : self
  }
}

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

/// The terminal the board draws on, and everything it changes there: the alternate screen, the
/// hidden cursor and the echo of typed keys (which would otherwise land in the middle of the
/// board). `enter()` changes them, `restore()` puts every one back — idempotent, callable from any
/// thread at any time (a signal handler's queue before an immediate exit), and never interleaved
/// with a frame being written: writes and the restore share one lock, and nothing is written
/// after it.
///
/// Frames are drawn without a full clear (no flicker): each changed line is written at its row
/// (`ESC[row;1H`), followed by erase-to-end-of-line (`ESC[K`); unchanged lines are not written
/// at all, and a frame is one `write`.
///
/// It follows the terminal: SIGWINCH updates the size and redraws everything; Ctrl-Z (SIGTSTP)
/// restores the terminal before the process stops, and SIGCONT takes the screen back.
public final class TerminalScreen: Sendable {
  public let fd: Int32
  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "ticker.screen")
  private let sources = RankedMutex(DispatchSources(), rank: .dispatchSources)

  private struct State {
    /// Between `enter()` and the final `restore()`.
    var entered = false
    /// Whether the terminal is in the board's modes now (not while stopped by Ctrl-Z).
    var shown = false
    var saved: termios?
    /// What each row shows now (nil: unknown, write it).
    var drawn: [String?] = []
    var size: TerminalSize?
  }

  static let escape = "\u{1B}["
  static let enterSequence = escape + "?1049h" + escape + "?25l"
  static let leaveSequence = escape + "0m" + escape + "?25h" + escape + "?1049l"

  public init(fd: Int32 = 1) {
    self.fd = fd
  }

  /// The size the terminal reports (`TIOCGWINSZ`); nil when `fd` is not a terminal or says 0×0.
  public static func size(of fd: Int32) -> TerminalSize? {
    var size = winsize()
    let result = withUnsafeMutablePointer(to: &size) { ioctl(fd, UInt(TIOCGWINSZ), $0) }
    guard result == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
  }

  /// The size last read (on entering and on each SIGWINCH); 80×24 when the terminal says none.
  public var size: TerminalSize {
    state.withLock { $0.size } ?? TerminalSize(columns: 80, rows: 24)
  }

  /// Takes the terminal: alternate screen, cursor hidden, typed keys not echoed; then watches
  /// SIGWINCH, SIGTSTP and SIGCONT, calling `onChange` when everything must be drawn again.
  public func enter(onChange: @escaping @Sendable () -> Void) {
    state.withLock { state in
      guard !state.entered else { return }
      state.entered = true
      state.size = Self.size(of: fd)
      take(&state)
    }
    watchSignals(onChange: onChange)
  }

  /// Draws `frame` (one line per row, from the top), writing only the lines that changed.
  public func draw(_ frame: BoardFrame) {
    state.withLock { state in
      guard state.shown else { return }
      let bytes = Self.update(from: state.drawn, to: frame)
      state.drawn = frame.lines.map { $0 }
      guard !bytes.isEmpty else { return }
      // A terminal that went away ends the process with SIGHUP; nothing to do about it here.
      try? FileDescriptorWriter(fd: fd).write(bytes)
    }
  }

  /// Gives the terminal back as it was found: attributes reset, cursor shown, the normal screen
  /// (with the cursor where it was), echo as before. Idempotent; nothing is drawn afterwards.
  public func restore() {
    sources.withLock { $0.cancelAll() }
    state.withLock { state in
      guard state.entered else { return }
      state.entered = false
      give(&state)
    }
    for number in [SIGWINCH, SIGTSTP, SIGCONT] { signal(number, SIG_DFL) }
  }

  /// The bytes that turn the screen showing `drawn` into `frame`: each line that differs is
  /// written at its row, followed by erase-to-end-of-line; rows that no longer exist (the
  /// terminal got shorter) are simply not written.
  static func update(from drawn: [String?], to frame: BoardFrame) -> [UInt8] {
    var bytes: [UInt8] = []
    for (row, line) in frame.lines.enumerated() {
      if row < drawn.count, drawn[row] == line { continue }
      bytes.append(contentsOf: "\(escape)\(row + 1);1H".utf8)
      bytes.append(contentsOf: line.utf8)
      bytes.append(contentsOf: "\(escape)K".utf8)
    }
    return bytes
  }

  // MARK: Modes

  /// Enters the board's modes (under the lock).
  private func take(_ state: inout State) {
    var modes = termios()
    if tcgetattr(fd, &modes) == 0 {
      state.saved = modes
      modes.c_lflag &= ~tcflag_t(ECHO)
      _ = tcsetattr(fd, TCSANOW, &modes)
    }
    try? FileDescriptorWriter(fd: fd).write(Self.enterSequence)
    state.drawn = []
    state.shown = true
  }

  /// Leaves them (under the lock).
  private func give(_ state: inout State) {
    guard state.shown else { return }
    state.shown = false
    try? FileDescriptorWriter(fd: fd).write(Self.leaveSequence)
    if var saved = state.saved { _ = tcsetattr(fd, TCSANOW, &saved) }
  }

  // MARK: Signals

  private func watchSignals(onChange: @escaping @Sendable () -> Void) {
    var made: [any DispatchSourceSignal] = []
    func watch(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler(handler: handler)
      source.resume()
      made.append(source)
    }
    watch(SIGWINCH) { [self] in
      let changed = state.withLock { state -> Bool in
        guard state.entered else { return false }
        state.size = Self.size(of: fd)
        state.drawn = []
        return true
      }
      if changed { onChange() }
    }
    watch(SIGTSTP) { [self] in
      // Ctrl-Z: give the terminal back, then stop for real (SIGSTOP cannot be caught).
      let entered = state.withLock { state -> Bool in
        give(&state)
        return state.entered
      }
      if entered { kill(getpid(), SIGSTOP) }
    }
    watch(SIGCONT) { [self] in
      let resumed = state.withLock { state -> Bool in
        guard state.entered, !state.shown else { return false }
        state.size = Self.size(of: fd)
        take(&state)
        return true
      }
      if resumed { onChange() }
    }
    sources.withLock { $0.keep(made) }
  }
}

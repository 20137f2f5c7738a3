/// The watchdog the service manager asks of this process (`WatchdogSec=`), read from the
/// environment it was started with: `WATCHDOG_USEC` (the timeout in microseconds) and, when set,
/// `WATCHDOG_PID` (the process it is meant for: a child that inherited the variables is not).
public enum WatchdogSetting {
  /// The shortest interval kept to, whatever the timeout: below it the pings would be a busy loop.
  public static let minimumInterval = Duration.milliseconds(1)

  /// How often to ping — half the timeout, as sd_watchdog_enabled(3) advises — or nil when no
  /// watchdog is asked of `pid`; a failure when the variables cannot be read (say so once).
  public static func interval(environment: [String: String], pid: Int32) -> Result<
    Duration, WatchdogSettingError
  >? {
    guard let text = environment["WATCHDOG_USEC"], !text.isEmpty else { return nil }
    if let owner = environment["WATCHDOG_PID"], !owner.isEmpty {
      guard let ownerPID = decimal(owner), ownerPID <= UInt64(Int32.max) else {
        return .failure(.invalidPID(owner))
      }
      if ownerPID != UInt64(pid) { return nil }
    }
    guard let microseconds = decimal(text), microseconds > 0 else { return .failure(.invalidTimeout(text)) }
    return .success(max(minimumInterval, .microseconds(microseconds / 2)))
  }

  /// A decimal number of digits only (no sign, no spaces), nil beyond `UInt64`.
  private static func decimal(_ text: String) -> UInt64? {
    guard text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return UInt64(text)
  }
}

/// Watchdog variables that cannot be read.
public enum WatchdogSettingError: Error, Sendable, Equatable, CustomStringConvertible {
  case invalidTimeout(String)
  case invalidPID(String)

  public var description: String {
    switch self {
    case .invalidTimeout(let text):
      "WATCHDOG_USEC=\(text) is not a positive number of microseconds: no watchdog pings"
    case .invalidPID(let text): "WATCHDOG_PID=\(text) is not a process id: no watchdog pings"
    }
  }
}

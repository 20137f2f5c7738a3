/// One notification to the service manager, as sd_notify(3) spells it: newline-separated
/// `KEY=VALUE` assignments in one datagram.
public enum SystemdMessage: Sendable, Equatable {
  /// Start-up (or a reload) is complete; with a status line when given.
  case ready(status: String?)
  /// A line for `systemctl status`.
  case status(String)
  /// The watchdog's keep-alive ping.
  case watchdog
  /// A reload began, at this `CLOCK_MONOTONIC` instant in microseconds: `Type=notify-reload`
  /// (systemd 253 and later) matches it against when it sent the reload signal.
  case reloading(monotonicMicroseconds: UInt64)
  /// Shutdown began.
  case stopping

  /// The longest status text sent, in bytes of UTF-8: `systemctl status` shows one line.
  public static let maximumStatusBytes = 200

  /// The datagram's text.
  public var text: String {
    switch self {
    case .ready(nil): "READY=1"
    case .ready(let status?): "READY=1\nSTATUS=" + Self.statusLine(status)
    case .status(let status): "STATUS=" + Self.statusLine(status)
    case .watchdog: "WATCHDOG=1"
    case .reloading(let microseconds): "RELOADING=1\nMONOTONIC_USEC=\(microseconds)"
    case .stopping: "STOPPING=1"
    }
  }

  /// `text` as one line a status may be: tabs and line breaks become spaces, every other control
  /// character (C0, DEL, C1) is removed — a newline would start an assignment of its own — and
  /// the rest is cut at `maximumStatusBytes`, never inside a character.
  public static func statusLine(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var bytes = 0
    for scalar in text.unicodeScalars {
      let value = scalar.value
      let kept: Unicode.Scalar
      if value == 0x09 || value == 0x0A || value == 0x0D {
        kept = " "
      } else if value < 0x20 || (0x7F...0x9F).contains(value) {
        continue
      } else {
        kept = scalar
      }
      let size = UTF8.width(kept)
      if bytes + size > maximumStatusBytes { break }
      bytes += size
      scalars.append(kept)
    }
    return String(scalars)
  }
}

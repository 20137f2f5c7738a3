#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call's `errno`, as a typed error (`POSIX.retryingInterrupted` throws it), and
/// the one way its text is read (`strerror`, without Foundation).
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
  public let code: Int32

  @inlinable
  public init(_ code: Int32) { self.code = code }

  /// The system's text for the code ("No such file or directory").
  public var description: String { Errno.text(code) }

  /// The system's text for `code`; `errno N` when it has none.
  public static func text(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "errno \(code)" }
    return String(cString: message)
  }
}

import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Notifications to the service manager (systemd's `Type=notify`), spoken directly: one
/// `AF_UNIX` datagram per message to the socket `NOTIFY_SOCKET` names, as sd_notify(3) does,
/// without libsystemd.
///
/// Sending never waits: a full queue or a manager gone loses the datagram (`MSG_DONTWAIT`), which
/// the protocol allows — the next status or ping says the same again. The socket is close-on-exec,
/// so an `--on-alert` command never holds it.
public final class SystemdNotifier: Sendable {
  /// Where notifications go.
  public enum Address: Sendable, Equatable {
    /// A socket in the file system (an absolute path).
    case path(String)
    /// A socket in Linux's abstract namespace: `NOTIFY_SOCKET=@name`, the name without the `@`.
    case abstract(String)

    /// The address `NOTIFY_SOCKET` holds.
    public static func parse(_ text: String) throws(SystemdNotifyError) -> Address {
      let limit = SystemdNotifier.maximumAddressBytes
      if text.hasPrefix("/") {
        guard !text.utf8.contains(0) else { throw .unsupportedAddress(text) }
        guard text.utf8.count <= limit else { throw .addressTooLong(text, limit: limit) }
        return .path(text)
      }
      if text.hasPrefix("@") {
        #if os(Linux)
          guard text.utf8.count <= limit else { throw .addressTooLong(text, limit: limit) }
          return .abstract(String(text.dropFirst()))
        #else
          throw .abstractUnavailable(text)
        #endif
      }
      throw .unsupportedAddress(text)
    }

    /// The bytes of `sun_path`: a path and its terminating NUL, or a NUL and the abstract name.
    var socketPathBytes: [UInt8] {
      switch self {
      case .path(let path): Array(path.utf8) + [0]
      case .abstract(let name): [0] + Array(name.utf8)
      }
    }
  }

  public let address: Address
  private let fd: Int32

  /// The longest address, in bytes, that `sun_path` holds with the byte it needs besides.
  public static var maximumAddressBytes: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

  /// The notifier `environment`'s `NOTIFY_SOCKET` asks for; nil when it is unset or empty (no
  /// service manager listens), a failure when it is unusable (say so once).
  public static func fromEnvironment(_ environment: [String: String])
    -> Result<SystemdNotifier, SystemdNotifyError>?
  {
    guard let text = environment["NOTIFY_SOCKET"], !text.isEmpty else { return nil }
    do throws(SystemdNotifyError) {
      return .success(try SystemdNotifier(address: Address.parse(text)))
    } catch {
      return .failure(error)
    }
  }

  public init(address: Address) throws(SystemdNotifyError) {
    self.address = address
    #if canImport(Glibc)
      fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { throw .socket(Errno(errno)) }
    #else
      fd = socket(AF_UNIX, SOCK_DGRAM, 0)
      guard fd >= 0 else { throw .socket(Errno(errno)) }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    #endif
  }

  deinit { POSIX.closeDescriptor(fd) }

  /// Sends `message` as one datagram, without waiting.
  public func send(_ message: SystemdMessage) throws(SystemdNotifyError) {
    var (socketAddress, length) = Self.socketAddress(address)
    var text = message.text
    let sent = text.withUTF8 { bytes in
      withUnsafePointer(to: &socketAddress) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          Result { () throws(Errno) -> Int in
            try POSIX.retryingInterrupted {
              sendto(fd, bytes.baseAddress, bytes.count, Self.sendFlags, generic, length)
            }
          }
        }
      }
    }
    if case .failure(let errno) = sent { throw .send(errno) }
  }

  /// `CLOCK_MONOTONIC` now, in microseconds (what `RELOADING=1` is stamped with).
  public static func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
  }

  private static var sendFlags: Int32 {
    #if canImport(Glibc)
      Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)
    #else
      MSG_DONTWAIT
    #endif
  }

  private static func socketAddress(_ address: Address) -> (sockaddr_un, socklen_t) {
    var socketAddress = sockaddr_un()
    socketAddress.sun_family = sa_family_t(AF_UNIX)
    let bytes = address.socketPathBytes
    withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes.prefix($0.count)) }
    let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count
    #if canImport(Darwin)
      socketAddress.sun_len = UInt8(length)
    #endif
    return (socketAddress, socklen_t(length))
  }
}

import Synchronization
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A datagram socket bound where a test's `NOTIFY_SOCKET` points, as systemd's is: in a new
/// temporary directory, or (Linux) in the abstract namespace. Read it datagram by datagram
/// (`receive`), or have a thread of its own collect every one as it arrives (`startCollecting`,
/// then `collected`), for a process under test that notifies at its own pace.
package final class NotifyReceiver: Sendable {
  /// One datagram, and when it was read.
  package struct Arrival: Sendable {
    package var text: String
    package var at: ContinuousClock.Instant
  }

  /// What `NOTIFY_SOCKET` is set to.
  package let name: String
  private let fd: Int32
  private let directory: String?
  private let arrivals = Mutex<[Arrival]>([])
  private let stopped = Atomic(false)

  package static func inTemporaryDirectory() throws -> NotifyReceiver {
    var template = Array("/tmp/ticker-notify-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Errno(errno) }
    let directory = String(cString: made)
    return try NotifyReceiver(name: directory + "/notify", directory: directory)
  }

  package convenience init(abstract: String) throws {
    try self.init(name: "@" + abstract, directory: nil)
  }

  private init(name: String, directory: String?) throws {
    self.name = name
    self.directory = directory
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw Errno(errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = name.hasPrefix("@") ? [0] + Array(name.utf8.dropFirst()) : Array(name.utf8) + [0]
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else {
      let code = errno
      close(fd)
      throw Errno(code)
    }
  }

  deinit {
    close(fd)
    if let directory {
      unlink(name)
      rmdir(directory)
    }
  }

  /// The next datagram's text, or nil when none comes within `milliseconds` (a hang guard).
  package func receive(within milliseconds: Int32 = 10_000) -> String? {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(fd, &buffer, buffer.count, 0)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  /// Collects every datagram on a thread of its own until `stopCollecting()` (do not `receive`
  /// meanwhile).
  package func startCollecting() {
    DedicatedThread.start(stackBytes: 256 << 10) { [self] in
      while !stopped.load(ordering: .acquiring) {
        guard let text = receive(within: 100) else { continue }
        let arrival = Arrival(text: text, at: .now)
        arrivals.withLock { $0.append(arrival) }
      }
    }
  }

  package func stopCollecting() { stopped.store(true, ordering: .releasing) }

  /// Every datagram collected so far, in order.
  package var collected: [Arrival] { arrivals.withLock { $0 } }
}

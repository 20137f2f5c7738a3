import Dispatch
import Synchronization
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One address to connect to, copied out of `getaddrinfo`'s list.
public struct SocketAddress: Sendable, Equatable {
  public var family: Int32
  /// The raw `sockaddr` bytes.
  public var bytes: [UInt8]

  public init(family: Int32, bytes: [UInt8]) {
    self.family = family
    self.bytes = bytes
  }
}

/// Name resolution with a deadline. `getaddrinfo` blocks for as long as the name servers take
/// (10 s and more when one never answers) and cannot be interrupted, so it runs on a thread of
/// its own while the caller waits at most until its deadline; a lookup that outlives the wait
/// finishes in the background and its answer is dropped. An address literal (`127.0.0.1`,
/// `::1`) never needs a name server: the system resolver answers it at once, on the caller's
/// thread, so a loaded machine cannot make a loopback connection time out in the lookup.
public struct Resolver: Sendable {
  /// The blocking lookup: host and port → addresses, or why not.
  public typealias Lookup = @Sendable (_ host: String, _ port: Int) -> Result<[SocketAddress], TransportError>

  let lookup: Lookup
  /// Answers address literals without blocking (nil: not a literal).
  let literal: (@Sendable (_ host: String, _ port: Int) -> [SocketAddress]?)?

  public init(lookup: @escaping Lookup) {
    self.lookup = lookup
    literal = nil
  }

  init(
    lookup: @escaping Lookup, literal: @escaping @Sendable (_ host: String, _ port: Int) -> [SocketAddress]?
  ) {
    self.lookup = lookup
    self.literal = literal
  }

  /// The system's resolver (`getaddrinfo`, both address families).
  public static let system = Resolver(lookup: systemLookup, literal: literalLookup)

  /// Resolves `host`, giving up with `.timeout` when `deadline` passes first.
  func resolve(_ host: String, port: Int, deadline: Deadline) throws(TransportError) -> [SocketAddress] {
    if let addresses = literal?(host, port) { return addresses }
    let box = Box()
    let lookup = self.lookup
    DedicatedThread.start {
      let result = lookup(host, port)
      box.state.withLock { $0 = result }
      box.done.signal()
    }
    let finished: Bool
    if let seconds = deadline.secondsLeft {
      finished = box.done.wait(timeout: .now() + seconds) == .success
    } else {
      box.done.wait()
      finished = true
    }
    guard finished, let result = box.state.withLock({ $0 }) else {
      throw .timeout("resolving \(host) (no answer from the name servers in time)")
    }
    return try result.get()
  }

  private final class Box: Sendable {
    let state = Mutex<Result<[SocketAddress], TransportError>?>(nil)
    let done = DispatchSemaphore(value: 0)
  }

  /// `host` as an IPv4 or IPv6 address literal (`getaddrinfo` with `AI_NUMERICHOST`, which never
  /// consults a name server); nil when it is a name.
  static func literalLookup(host: String, port: Int) -> [SocketAddress]? {
    guard case .success(let addresses) = systemLookup(host: host, port: port, flags: AI_NUMERICHOST),
      !addresses.isEmpty
    else { return nil }
    return addresses
  }

  static func systemLookup(host: String, port: Int) -> Result<[SocketAddress], TransportError> {
    systemLookup(host: host, port: port, flags: 0)
  }

  private static func systemLookup(host: String, port: Int, flags: Int32) -> Result<
    [SocketAddress], TransportError
  > {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = POSIX.streamType
    hints.ai_flags = AI_NUMERICSERV | flags
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let list else {
      let message =
        status == EAI_SYSTEM
        ? Errno.text(errno) : String(cString: gai_strerror(status))
      return .failure(.resolve(host: host, message: message))
    }
    defer { freeaddrinfo(list) }
    var addresses: [SocketAddress] = []
    var cursor: UnsafeMutablePointer<addrinfo>? = list
    while let info = cursor {
      cursor = info.pointee.ai_next
      guard let address = info.pointee.ai_addr else { continue }
      let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen))
      addresses.append(SocketAddress(family: info.pointee.ai_family, bytes: Array(bytes)))
    }
    return .success(addresses)
  }
}

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own for work that blocks (a socket read loop, an accept loop, a writer
/// waiting for its queue): never Swift's cooperative pool, and never Dispatch's worker pool
/// either, whose threads are capped (a few hundred on Linux) and handed out slowly once many
/// are blocked — a server with a few hundred clients, each holding a blocked reader and writer,
/// would otherwise stall every new connection behind them.
public enum DedicatedThread {
  /// The stack each thread reserves unless told otherwise: address space, not memory (only the
  /// pages a thread touches become resident). Room for the resolver's NSS modules, OpenSSL's
  /// handshake and a debug build's larger frames.
  public static let defaultStackBytes = 2 << 20

  /// Runs `body` on a new detached thread with `stackBytes` of stack. Falls back to running it
  /// on a Dispatch queue only if the system refuses a thread.
  public static func start(
    stackBytes: Int = defaultStackBytes, _ body: @escaping @Sendable () -> Void
  ) {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    _ = pthread_attr_setstacksize(&attributes, stackBytes)  // on EINVAL, the default stays
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let status = pthread_create(&thread, &attributes, DedicatedThread.entry, box)
    if status != 0 {
      let body = Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body
      DispatchQueue(label: "websocket.thread").async(execute: body)
    }
  }

  #if canImport(Glibc)
    private static let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
      pointer in
      guard let pointer else { return nil }
      Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue().body()
      return nil
    }
  #else
    private static let entry: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = {
      pointer in
      Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue().body()
      return nil
    }
  #endif

  private final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}

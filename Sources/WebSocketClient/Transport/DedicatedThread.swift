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
  /// Runs `body` on a new detached thread (a small stack: these loops are shallow). Falls back
  /// to running it on a Dispatch queue only if the system refuses a thread.
  public static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    pthread_attr_setstacksize(&attributes, 512 * 1024)
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

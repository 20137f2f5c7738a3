import Dispatch
import Synchronization
import TickerSupport

/// The accepting side of a server: a thread that accepts connections on a listener until it is
/// closed, and serves each on a thread of its own (blocking reads and writes, so a slow client
/// holds only its own threads, never Swift's small cooperative pool).
public final class ConnectionAcceptor: Sendable {
  public let listener: TCPListener
  private let accepted = Atomic(0)

  public init(listener: TCPListener) { self.listener = listener }

  /// Starts accepting; `serve` runs for each connection (with its 0-based number) on a thread
  /// of its own and owns the stream.
  public func start(label: String, serve: @escaping @Sendable (TCPStream, Int) -> Void) {
    DedicatedThread.start { [self] in
      while true {
        let stream: TCPStream
        do {
          stream = try listener.accept(timeout: nil)
        } catch {
          return  // stopped (listener closed) or the listener failed
        }
        let index = accepted.add(1, ordering: .relaxed).oldValue
        DedicatedThread.start { serve(stream, index) }
      }
    }
  }

  /// Stops accepting (wakes the accepting thread). Open connections are the caller's.
  public func stop() { listener.close() }
}

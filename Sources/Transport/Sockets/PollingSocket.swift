import Synchronization
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A non-blocking socket descriptor plus a wake pipe, shared by `TCPStream`, `TCPListener` and
/// (through `TCPStream`) `TLSStream`.
///
/// Blocking waits `poll` the socket and the pipe together, so `shutdown()` from any thread wakes
/// them and they throw `.cancelled`. The descriptors are closed only once no operation is inside
/// `withDescriptor`, so a concurrent `close()` never closes a descriptor that is being polled
/// (which could otherwise be reused by an unrelated `open`).
package final class PollingSocket: Sendable {
  let fd: Int32
  /// Wakes the waits when the socket is shut down.
  private let waker: Waker

  private struct State {
    var isShutdown = false
    var isClosed = false
    var active = 0
    var released = false
  }
  private let state = Mutex(State())

  /// Takes ownership of `fd` (closed here if the wake pipe cannot be made).
  package init(fd: Int32) throws(TransportError) {
    do {
      waker = try Waker()
    } catch {
      POSIX.closeDescriptor(fd)
      throw error
    }
    self.fd = fd
  }

  deinit {
    let released = state.withLock { $0.released }
    if !released { releaseDescriptors() }
  }

  package var isShutdown: Bool { state.withLock { $0.isShutdown } }

  /// Runs `body` with the descriptor, which stays open until `body` returns.
  /// Throws `.cancelled` at once after `shutdown()`/`close()`.
  package func withDescriptor<R>(_ body: (Int32) throws(TransportError) -> R) throws(TransportError) -> R {
    let entered = state.withLock { state in
      if state.isShutdown || state.isClosed { return false }
      state.active += 1
      return true
    }
    guard entered else { throw .cancelled }
    defer { leave() }
    return try body(fd)
  }

  private func leave() {
    let release = state.withLock { state in
      state.active -= 1
      guard state.isClosed, state.active == 0, !state.released else { return false }
      state.released = true
      return true
    }
    if release { releaseDescriptors() }
  }

  /// Waits until the socket reports one of `events` (POLLIN/POLLOUT; errors and hang-ups count
  /// as ready so that the next system call reports them). Call only inside `withDescriptor`.
  package func wait(for events: Int16, until deadline: Deadline, operation: String) throws(TransportError) {
    while true {
      var fds = [
        pollfd(fd: fd, events: events, revents: 0),
        pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      let result: Int32
      do throws(Errno) {
        result = try POSIX.retryingInterrupted { POSIX.pollDescriptors(&fds, 2, deadline.pollMilliseconds) }
      } catch {
        throw .syscall(call: "poll", errno: error.code)
      }
      if fds[1].revents != 0 || isShutdown { throw .cancelled }
      if result == 0 { throw .timeout(operation) }
      if fds[0].revents != 0 { return }
    }
  }

  /// Wakes every waiter (now and later) and shuts the socket down in both directions.
  func shutdown() {
    state.withLock { state in
      guard !state.isShutdown else { return }
      state.isShutdown = true
      guard !state.released else { return }
      waker.wake()
      POSIX.shutdownSocket(fd)
    }
  }

  /// `shutdown()`, then closes the descriptors as soon as no operation uses them.
  package func close() {
    shutdown()
    let release = state.withLock { state in
      state.isClosed = true
      guard state.active == 0, !state.released else { return false }
      state.released = true
      return true
    }
    if release { releaseDescriptors() }
  }

  private func releaseDescriptors() {
    POSIX.closeDescriptor(fd)
    waker.close()
  }
}

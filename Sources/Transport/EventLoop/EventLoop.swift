import Synchronization
import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread that serves many sockets: it waits in `poll(2)` on the descriptors its driver
/// names, hands the driver what became ready, what fell due, and the commands other threads
/// posted, and waits again. The driver lives on that thread alone (it is made there, so nothing
/// of it needs to be `Sendable`); everything else reaches it through `post`, which wakes the
/// wait. What a thread per connection costs at a thousand clients (two thousand threads, a
/// wake-up per delivery) is the reason it exists: see `Benchmarks/serve_fanout.py`.
public final class EventLoop<Command: Sendable>: Sendable {
  private let waker: Waker
  private let state = Mutex(State())

  private struct State {
    var commands: [Command] = []
    /// The loop is waiting (or about to): a post must wake it.
    var waiting = false
    var stopped = false
  }

  /// Makes the wake-up pipe; the loop starts with `run`.
  public init() throws(TransportError) {
    waker = try Waker()
  }

  /// Runs the loop on a thread of its own with the driver `make` builds there, until the driver
  /// says it is finished (then `done` runs on that thread).
  public func run<Driver: EventLoopDriver>(
    _ make: @escaping @Sendable () -> Driver, done: @escaping @Sendable () -> Void = {}
  ) where Driver.Command == Command {
    DedicatedThread.start { [self] in
      var driver = make()
      loop(&driver)
      done()
    }
  }

  /// Queues `command` for the driver and wakes the loop. False once the loop ended.
  @discardableResult
  public func post(_ command: Command) -> Bool {
    let wake = state.withLock { state -> Bool? in
      guard !state.stopped else { return nil }
      state.commands.append(command)
      defer { state.waiting = false }
      return state.waiting
    }
    guard let wake else { return false }
    if wake { waker.wake() }
    return true
  }

  private func loop<Driver: EventLoopDriver>(_ driver: inout Driver) where Driver.Command == Command {
    var interests: [EventLoopInterest] = []
    var fds: [pollfd] = []
    while !driver.isFinished {
      // Waiting is announced before the commands are taken: a post after this wakes the wait.
      let commands = state.withLock { state -> [Command] in
        state.waiting = state.commands.isEmpty
        defer { state.commands = [] }
        return state.commands
      }
      if !commands.isEmpty { driver.handle(commands, now: .now) }
      if driver.isFinished { break }
      interests.removeAll(keepingCapacity: true)
      driver.interests(into: &interests)
      fds.removeAll(keepingCapacity: true)
      fds.append(pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0))
      for interest in interests {
        fds.append(pollfd(fd: interest.descriptor, events: interest.events, revents: 0))
      }
      // Commands handled: look at the sockets without blocking, then take the next ones (a
      // stream of commands never starves the sockets, nor the sockets the commands).
      let ready = Self.wait(&fds, until: commands.isEmpty ? driver.nextDeadline : .now)
      let now = ContinuousClock.now
      if ready > 0 {
        if fds[0].revents != 0 { waker.drain() }
        for index in interests.indices where fds[index + 1].revents != 0 {
          driver.ready(interests[index].token, events: fds[index + 1].revents, now: now)
        }
      }
      driver.timersDue(now: now)
    }
    state.withLock {
      $0.stopped = true
      $0.commands = []
    }
    waker.close()
  }

  /// `poll` until something is ready or `deadline` passed (nil: no deadline); retried when a
  /// signal interrupts it. The count of ready descriptors, 0 on time-out.
  private static func wait(_ fds: inout [pollfd], until deadline: ContinuousClock.Instant?) -> Int32 {
    var timeout: Int32 = -1
    if let deadline {
      let left = deadline - .now
      let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
      timeout = Int32(clamping: max(0, milliseconds + (left > .zero ? 1 : 0)))
    }
    return (try? POSIX.retryingInterrupted { POSIX.pollDescriptors(&fds, fds.count, timeout) }) ?? 0
  }

}

/// A descriptor the loop waits on, the events wanted (`POLLIN`, `POLLOUT`; errors and hang-ups
/// are always reported) and the driver's name for it.
public struct EventLoopInterest: Sendable {
  public var descriptor: Int32
  public var events: Int16
  public var token: Int

  public init(descriptor: Int32, readable: Bool, writable: Bool, token: Int) {
    self.descriptor = descriptor
    self.events = (readable ? Int16(POLLIN) : 0) | (writable ? Int16(POLLOUT) : 0)
    self.token = token
  }
}

/// The state an `EventLoop` drives, confined to the loop's thread.
public protocol EventLoopDriver {
  associatedtype Command: Sendable
  /// Once true, the loop ends.
  var isFinished: Bool { get }
  /// The earliest instant `timersDue` must run, or nil for none.
  var nextDeadline: ContinuousClock.Instant? { get }
  /// The descriptors to wait on now.
  func interests(into list: inout [EventLoopInterest])
  /// The descriptor named `token` is ready (`POLLIN`, `POLLOUT`, `POLLERR`, `POLLHUP` in `events`).
  mutating func ready(_ token: Int, events: Int16, now: ContinuousClock.Instant)
  /// Runs what is due by `now`; called after every wait.
  mutating func timersDue(now: ContinuousClock.Instant)
  /// Commands posted from other threads, in order.
  mutating func handle(_ commands: [Command], now: ContinuousClock.Instant)
}

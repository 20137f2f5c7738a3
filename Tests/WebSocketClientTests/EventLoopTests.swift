import Dispatch
import Synchronization
import Testing

@testable import Transport

/// `EventLoop`: one thread that accepts, echoes what each connection sends when its socket is
/// ready, takes commands posted from other threads in order, runs what falls due, and ends when
/// its driver says so.
@Suite(.ownThread) struct EventLoopTests {
  /// What the test driver saw, for the test's thread, which waits on the events it signals.
  final class Seen: Sendable {
    let commands = Mutex<[Int]>([])
    /// Signalled at the hundredth command, when the deadline fired, and when the loop ended.
    let hundredCommands = DispatchSemaphore(value: 0)
    let fired = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
  }

  struct EchoDriver: EventLoopDriver {
    let listener: TCPListener
    let seen: Seen
    var streams: [Int: TCPStream] = [:]
    var pending: [Int: [UInt8]] = [:]
    var deadline: ContinuousClock.Instant?
    var stopped = false

    var isFinished: Bool { stopped }
    var nextDeadline: ContinuousClock.Instant? { deadline }

    func interests(into list: inout [EventLoopInterest]) {
      list.append(
        EventLoopInterest(descriptor: listener.descriptor, readable: true, writable: false, token: 0))
      for (token, stream) in streams {
        list.append(
          EventLoopInterest(
            descriptor: stream.descriptor, readable: true, writable: pending[token]?.isEmpty == false,
            token: token))
      }
    }

    mutating func ready(_ token: Int, events: Int16, now: ContinuousClock.Instant) {
      if token == 0 {
        while let stream = try? listener.acceptAvailable() { streams[streams.count + 1] = stream }
        return
      }
      guard let stream = streams[token] else { return }
      var buffer = [UInt8](repeating: 0, count: 4096)
      if case .transferred(let count) = buffer.withUnsafeMutableBytes({ stream.readAvailable(into: $0) }) {
        pending[token, default: []] += buffer[0..<count]
      }
      if let bytes = pending[token], !bytes.isEmpty,
        case .transferred(let count) = bytes.withUnsafeBytes({ stream.writeAvailable($0) })
      {
        pending[token] = Array(bytes[count...])
      }
    }

    mutating func timersDue(now: ContinuousClock.Instant) {
      guard let due = deadline, due <= now else { return }
      deadline = nil
      seen.fired.signal()
    }

    mutating func handle(_ commands: [Int], now: ContinuousClock.Instant) {
      for command in commands {
        if command < 0 {
          stopped = true
          for stream in streams.values { stream.close() }
        } else if command == 0 {
          deadline = now + .milliseconds(50)
        } else {
          let count = seen.commands.withLock { commands -> Int in
            commands.append(command)
            return commands.count
          }
          if count == 100 { seen.hundredCommands.signal() }
        }
      }
    }
  }

  @Test("echoes two clients, takes posted commands in order, fires a deadline, and ends when told")
  func echoesCommandsAndDeadlines() throws {
    let listener = try TCPListener()
    defer { listener.close() }
    let loop = try EventLoop<Int>()
    let seen = Seen()
    loop.run({ EchoDriver(listener: listener, seen: seen) }, done: { seen.done.signal() })
    let clients = try (0..<2).map { _ in
      try TCPStream.connect(host: "127.0.0.1", port: listener.port, timeout: 10)
    }
    for (index, client) in clients.enumerated() {
      let message = Array("hello \(index)".utf8)
      try client.write(message, timeout: 10)
      var echoed: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 64)
      while echoed.count < message.count {
        // (A typed-throws closure passed to `withUnsafeMutableBytes` crashes the 6.3.1 compiler.)
        var count = 0
        buffer.withUnsafeMutableBytes { raw in count = (try? client.read(into: raw, timeout: 10)) ?? 0 }
        guard count > 0 else { break }
        echoed += buffer[0..<count]
      }
      #expect(echoed == message)
    }
    for command in 1...100 { #expect(loop.post(command)) }
    #expect(loop.post(0))
    // The waits are bounds against a hang, not timings.
    #expect(seen.hundredCommands.wait(timeout: .now() + 30) == .success)
    #expect(seen.commands.withLock { $0 } == Array(1...100))
    #expect(seen.fired.wait(timeout: .now() + 30) == .success)
    #expect(loop.post(-1))
    #expect(seen.done.wait(timeout: .now() + 30) == .success)
    #expect(!loop.post(1), "a loop that ended takes no more commands")
    for client in clients { client.close() }
  }
}

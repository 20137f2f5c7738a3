import TestSupport
import Testing
import Transport

@testable import Monitoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ten thousand connections that never finish a request, opened in waves and all kept open on
/// the client's side: the endpoint holds 64 at most (each newcomer closes the oldest still waiting
/// for its head), answers a fresh client after every wave while they are all open, and lets every
/// slot go once they close.
@Suite(.ownThread) struct MetricsServerFloodTests {
  static let wanted = 10_000
  static let waves = 10

  @Test func tenThousandConnections() async throws {
    // The clients' descriptors are this process's, beside every other test's: at most three
    // quarters of the limit (raised to its hard limit first). The limit here is 20,000, so all
    // 10,000 are opened; a lower one opens fewer, and the test says how many.
    let count = min(Self.wanted, PlainSocket.raisedDescriptorLimit() * 3 / 4 - 256)
    #expect(count >= 1000, "the descriptor limit allows \(count) connections only")
    let server = try MetricsServer(
      limits: MetricsServer.Limits(headTimeout: .seconds(300), maximumConnections: 64),
      routes: MetricsRoutes(metrics: { "up 1\n" }, health: { (true, []) }))
    server.start()
    defer { server.stop() }
    let port = server.port
    let answered = try await offPool {
      try PlainSocket.exclusively {
        try Self.flood(port: port, count: count, accepted: { server.statistics.accepted })
      }
    }
    #expect(answered == Array(repeating: 200, count: Self.waves))
    let statistics = server.statistics
    #expect(statistics.mostOpen <= 64)
    #expect(statistics.accepted >= count + Self.waves)
    #expect(statistics.evicted >= count - 64)
    #expect(statistics.refused == 0)
    #expect(statistics.headTimeouts == 0)
    // Closed by the clients, the last ones free their slots.
    #expect(await eventually { server.statistics.open == 0 })
    #expect(try HTTPTestClient.request(port: port, "/metrics").status == 200)
  }

  /// Opens `count` connections in waves of 100 (every other one sends half a head), each wave
  /// taken by the server before the next (a wave larger than the listener's backlog would wait
  /// for the kernel's SYN retries: a second each), a fresh request every tenth of the way while
  /// all are open; closes them all at the end. The fresh requests' statuses.
  /// Plain sockets: a `TCPStream` holds a wake-up pair of descriptors besides its socket.
  private static func flood(port: Int, count: Int, accepted: @Sendable () -> Int) throws -> [Int] {
    var open: [Int32] = []
    open.reserveCapacity(count)
    defer { for fd in open { close(fd) } }
    let half = Array("GET /metrics HTTP/1.1\r\nHost: x\r\n".utf8)
    var answered: [Int] = []
    var fresh = 0
    while open.count < count {
      for _ in 0..<min(100, count - open.count) {
        let fd = try PlainSocket.connect(port: port)
        open.append(fd)
        // A write to a connection the server already closed may fail: that is the point.
        if open.count % 2 == 0 {
          _ = half.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, PlainSocket.noSignal) }
        }
      }
      let start = ContinuousClock.now
      while accepted() < open.count + fresh, ContinuousClock.now - start < .seconds(30) { usleep(1000) }
      if answered.count < open.count * waves / count {
        answered.append(try HTTPTestClient.request(port: port, "/metrics").status)
        fresh += 1
      }
    }
    return answered
  }
}

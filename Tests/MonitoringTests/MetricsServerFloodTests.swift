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
    // A request after every wave (the server kept up with it); every tenth of the way, its status.
    let answered = try await offPool { () throws -> [Int] in
      var answered: [Int] = []
      try PlainSocket.flood(port: port, count: count) { open in
        let status = try HTTPTestClient.request(port: port, "/metrics").status
        if answered.count < open * Self.waves / count { answered.append(status) }
      }
      return answered
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
}

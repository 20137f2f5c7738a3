import Synchronization
import TestSupport
import Testing

@testable import Monitoring

/// The endpoint's routes over real sockets on loopback.
@Suite(.ownThread) struct MetricsServerTests {
  static let body = "# HELP up Whether it runs.\n# TYPE up gauge\nup 1\n"

  /// What the health route says: the reasons the test sets (none: healthy).
  final class Health: Sendable {
    let reasons = Mutex<[String]>([])
  }

  /// A server whose health the test sets.
  private func server(token: String? = nil, health: Health? = nil) throws -> MetricsServer {
    let server = try MetricsServer(
      token: token,
      routes: MetricsRoutes(
        metrics: { Self.body },
        health: {
          let now = health?.reasons.withLock { $0 } ?? []
          return (now.isEmpty, now)
        }))
    server.start()
    return server
  }

  @Test func metrics() throws {
    let server = try server()
    defer { server.stop() }
    let response = try HTTPTestClient.request(port: server.port, "/metrics")
    #expect(response.status == 200)
    #expect(response.fields["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
    #expect(response.fields["content-length"] == "\(Self.body.utf8.count)")
    #expect(response.fields["connection"] == "close")
    #expect(response.body == Self.body)
    #expect(try HTTPTestClient.request(port: server.port, "/metrics?name[]=up").body == Self.body)
  }

  @Test func health() throws {
    let health = Health()
    let server = try server(health: health)
    defer { server.stop() }
    let healthy = try HTTPTestClient.request(port: server.port, "/healthz")
    #expect(healthy.status == 200)
    #expect(healthy.body == "ok\n")
    health.reasons.withLock { $0 = ["binance: disconnected", "coinbase: silent for 40 s"] }
    let unhealthy = try HTTPTestClient.request(port: server.port, "/healthz")
    #expect(unhealthy.status == 503)
    #expect(unhealthy.body == "binance: disconnected\ncoinbase: silent for 40 s\n")
  }

  @Test func headHasTheLengthButNoBody() throws {
    let server = try server()
    defer { server.stop() }
    let response = try HTTPTestClient.request(port: server.port, "/metrics", method: "HEAD")
    #expect(response.status == 200)
    #expect(response.fields["content-length"] == "\(Self.body.utf8.count)")
    #expect(response.body.isEmpty)
  }

  @Test func unknownPathsMethodsAndMalformedRequests() throws {
    let server = try server()
    defer { server.stop() }
    #expect(try HTTPTestClient.request(port: server.port, "/").status == 404)
    #expect(try HTTPTestClient.request(port: server.port, "/metricsx").status == 404)
    let post = try HTTPTestClient.request(
      port: server.port, "/metrics", method: "POST", fields: ["Content-Length: 0"])
    #expect(post.status == 405)
    #expect(post.fields["allow"] == "GET, HEAD")
    #expect(try HTTPTestClient.exchange(port: server.port, "GET /metrics\r\n\r\n").status == 400)
    #expect(
      try HTTPTestClient.exchange(port: server.port, "GET /metrics HTTP/1.1\nHost: x\n\n").status == 400)
    #expect(try HTTPTestClient.exchange(port: server.port, "GET /metrics HTTP/2.0\r\n\r\n").status == 505)
    let statistics = server.statistics
    #expect(statistics.responses == 6)
    #expect(statistics.accepted == 6)
  }

  @Test func token() throws {
    let server = try server(token: "s3cret-Token")
    defer { server.stop() }
    for fields in [[], ["Authorization: Bearer s3cret-Tokem"], ["Authorization: Basic czNjcmV0LVRva2Vu"]] {
      let refused = try HTTPTestClient.request(port: server.port, "/metrics", fields: fields)
      #expect(refused.status == 401)
      #expect(refused.fields["www-authenticate"] == "Bearer")
      #expect(refused.body.firstRange(of: "s3cret") == nil)
      #expect(refused.body.firstRange(of: "up 1") == nil)
    }
    // Unknown paths are not told apart without the token.
    #expect(try HTTPTestClient.request(port: server.port, "/nothing").status == 401)
    let allowed = try HTTPTestClient.request(
      port: server.port, "/metrics", fields: ["Authorization: Bearer s3cret-Token"])
    #expect(allowed.status == 200)
    #expect(allowed.body == Self.body)
  }

  @Test func stopClosesTheListener() throws {
    let server = try server()
    let port = server.port
    #expect(try HTTPTestClient.request(port: port, "/healthz").status == 200)
    server.stop()
    #expect(throws: (any Error).self) { try HTTPTestClient.request(port: port, "/healthz", timeout: 5) }
    // The port is free again.
    let again = try MetricsServer(port: port, routes: MetricsRoutes(metrics: { "" }, health: { (true, []) }))
    again.stop()
  }
}

import TestSupport
import Testing
import Transport

@testable import Monitoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hostile clients on loopback: each costs the endpoint one slot for a bounded time and bounded
/// bytes, and a well-behaved client is still answered.
@Suite(.ownThread) struct MetricsServerHostileTests {
  static let routes = MetricsRoutes(metrics: { "up 1\n" }, health: { (true, []) })

  private func server(_ limits: MetricsServer.Limits, routes: MetricsRoutes = routes) throws -> MetricsServer
  {
    let server = try MetricsServer(limits: limits, routes: routes)
    server.start()
    return server
  }

  /// A client that sends its head a byte at a time (one every 100 ms) is closed at the head's
  /// deadline, however steadily it sends; another client is served meanwhile.
  @Test func slowlorisIsClosedAtTheHeadDeadline() async throws {
    let server = try server(MetricsServer.Limits(headTimeout: .seconds(1)))
    defer { server.stop() }
    let port = server.port
    async let dripped = offPool { try Self.drip(port: port) }
    #expect(await eventually { server.statistics.mostReadFromOne > 0 })
    #expect(try HTTPTestClient.request(port: port, "/metrics").body == "up 1\n")
    let (closed, answer) = try await dripped
    #expect(closed, "the server never closed the dripping client")
    #expect(answer.isEmpty, "a dripping client was answered: \(answer)")
    #expect(server.statistics.headTimeouts == 1)
    #expect(server.statistics.responses == 1)
  }

  /// Drips a head that never ends until the server closes (true) or 30 s pass (false), with
  /// whatever the server sent.
  private static func drip(port: Int) throws -> (closed: Bool, answer: [UInt8]) {
    let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 10)
    defer { stream.close() }
    try Array("GET /metrics HTTP/1.1\r\nX-Slow: ".utf8).withUnsafeBytes { try stream.write($0, timeout: 10) }
    var answer = [UInt8](repeating: 0, count: 1024)
    var got: [UInt8] = []
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(30) {
      // Waits for the server (its answer or its close) for the drip's pace, then drips a byte.
      do {
        let count = try answer.withUnsafeMutableBytes { try stream.read(into: $0, timeout: 0.1) }
        if count == 0 { return (true, got) }
        got += answer[0..<count]
        continue
      } catch {
        guard case TransportError.timeout = error else { return (true, got) }
      }
      do {
        try [UInt8(ascii: "a")].withUnsafeBytes { try stream.write($0, timeout: 10) }
      } catch {
        return (true, got)
      }
    }
    return (false, got)
  }

  /// A request line (or a head) that never ends, streamed as fast as the socket takes it: the
  /// server reads one byte past its 8 KiB limit, answers 414 (431), and closes; the client's
  /// next writes fail long before its gigabyte is out.
  @Test(arguments: [(false, 414), (true, 431)])
  func endlessHead(headers: Bool, status: Int) async throws {
    let server = try server(MetricsServer.Limits())
    defer { server.stop() }
    let port = server.port
    let (sent, failure, answer) = try await offPool { try Self.stream(port: port, headers: headers) }
    #expect(sent < 1 << 30)
    #expect(failure == EPIPE || failure == ECONNRESET, "the writes ended with errno \(failure)")
    let statistics = server.statistics
    #expect(statistics.mostReadFromOne <= 8193)
    #expect(statistics.mostReadFromOne > 8192 - 100)
    #expect(statistics.responses == 1)
    // The answer came before the server's reset (the server closed with the client's bytes
    // unread): Linux keeps what was received readable before reporting the reset.
    #expect(answer?.status == status)
    #expect(try HTTPTestClient.request(port: port, "/healthz").status == 200)
  }

  /// Streams a head without end (64 KiB writes) until a write fails or 1 GiB is out: the bytes
  /// sent, the errno the writes ended with (0: none), and the response, if one could be read.
  private static func stream(port: Int, headers: Bool) throws -> (Int, Int32, HTTPTestResponse?) {
    let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 10)
    defer { stream.close() }
    let start = headers ? "GET /metrics HTTP/1.1\r\n" : "GET /"
    let chunk = Array(
      (headers
        ? String(repeating: "X-Filler: 0123456789abcdef\r\n", count: 2427)
        : String(repeating: "a", count: 65536))
        .utf8)
    var sent = 0
    var failure: Int32 = 0
    do {
      try Array(start.utf8).withUnsafeBytes { try stream.write($0, timeout: 10) }
      while sent < 1 << 30 {
        try chunk.withUnsafeBytes { try stream.write($0, timeout: 10) }
        sent += chunk.count
      }
    } catch TransportError.syscall(_, let code) {
      failure = code
    }
    let bytes = try? HTTPTestClient.readToEnd(stream, timeout: 10)
    return (sent, failure, bytes.flatMap { HTTPTestResponse($0) })
  }

  /// Clients that ask for a large response and never read it hold their slot until the write
  /// deadline: meanwhile the others are served, until every slot is held, when a newcomer is
  /// answered 503 at once; after the deadline the slots are free again.
  @Test func slowReadersHoldTheirSlotUntilTheWriteDeadline() async throws {
    // Larger than what the kernels' buffers take from a client that does not read (a few MiB).
    let large = String(repeating: "x", count: 8 << 20)
    let server = try server(
      MetricsServer.Limits(writeTimeout: .seconds(2), maximumConnections: 3),
      routes: MetricsRoutes(metrics: { large }, health: { (true, []) }))
    defer { server.stop() }
    let port = server.port
    var stuck: [TCPStream] = []
    defer { for stream in stuck { stream.close() } }
    for _ in 0..<2 { stuck.append(try Self.askWithoutReading(port: port)) }
    #expect(await eventually { server.statistics.writing == 2 })
    #expect(try HTTPTestClient.request(port: port, "/healthz").status == 200)
    stuck.append(try Self.askWithoutReading(port: port))
    #expect(await eventually { server.statistics.writing == 3 })
    // Every slot is writing: a newcomer (which sends nothing, so that the refusal is not lost to
    // a reset) is refused at once.
    let newcomer = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 10)
    defer { newcomer.close() }
    let refusal = HTTPTestResponse(try HTTPTestClient.readToEnd(newcomer, timeout: 10))
    #expect(refusal?.status == 503)
    #expect(refusal?.body == "too many connections\n")
    #expect(server.statistics.refused == 1)
    #expect(await eventually { server.statistics.writeTimeouts == 3 && server.statistics.writing == 0 })
    #expect(try HTTPTestClient.request(port: port, "/healthz").status == 200)
  }

  private static func askWithoutReading(port: Int) throws -> TCPStream {
    let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 10)
    try Array("GET /metrics HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { try stream.write($0, timeout: 10) }
    return stream
  }
}

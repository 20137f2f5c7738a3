import Foundation
import Recording
import Testing

@testable import Emulators
@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Hostile clients on the ticker's `--metrics` port while it prints prices: ten thousand
/// connections that never finish a request, slowloris clients and a request line of a gigabyte
/// cost no price (every trade the venue sends is printed, in order) and bounded memory.
@Suite("ticker end to end: hostile clients on --metrics", .serialized)
struct MetricsHostileEndToEndTests {
  static let trades = 600

  /// AAPL trades every 25 ms (15 s).
  static func script() -> SessionScript {
    var steps = [
      SessionScript.Step(direction: .server, kind: .http, afterMilliseconds: 0, body: "HTTP/1.1 101")
    ]
    for index in 1...trades {
      steps.append(
        StaleSymbolEndToEndTests.trade("AAPL", "\(index).25", 1_768_655_932_000 + Int64(index), after: 25))
    }
    return SessionScript(steps: steps)
  }

  @Test("10,000 idle connections, slowloris and a 1 GiB request line cost no price and bounded memory")
  func hostileClientsCostNoPrice() async throws {
    // After the 600, the venue goes on trading (slowly: nobody reads stdout meanwhile), so it is
    // connected and sending however long the flood takes on a loaded machine.
    let server = try FeedServer(
      script: Self.script(), options: .init(timeScale: 1, ending: .synthetic(seed: 3, interval: 0.5)))
    server.start()
    defer { server.stop() }
    let (ticker, port) = try MetricsEndToEndTests.ticker(server)
    defer { ticker.signal(SIGTERM) }
    // Prices are flowing (the venue is connected: /healthz is 200) before the clients come.
    _ = ticker.waitForLines(1)
    let (opened, gigabyteSent) = try await offPool { () throws -> (Int, Int) in
      let slow = try Self.slowloris(port: port, clients: 20)
      defer { for fd in slow { close(fd) } }
      let opened = try Self.flood(port: port)
      return (opened, try Self.gigabyteRequestLine(port: port))
    }
    #expect(opened >= 1000, "the descriptor limit allowed \(opened) connections only")
    // The server stopped reading the request line long before a gigabyte.
    #expect(gigabyteSent < 64 << 20, "sent \(gigabyteSent) bytes before the server closed")
    let lines = ticker.waitForLines(Self.trades, within: 60)
    #expect(lines.count >= Self.trades)
    #expect(
      lines.prefix(Self.trades).map { $0.split(separator: "\t").last.map(String.init) }
        == (1...Self.trades).map { "\($0).25" })
    #expect(try HTTPFetch.get(port, "/healthz").status == 200)
    // Its peak memory stayed far below what keeping any of that would cost.
    let peak = ticker.peakResidentKilobytes() ?? 0
    #expect(peak > 0 && peak < 100 << 10, "peak RSS \(peak) KiB")
  }

  /// Opens 10,000 connections (or three quarters of the descriptor limit), each wave of them
  /// followed by a request that must be answered; closes them all. How many were opened.
  static func flood(port: Int) throws -> Int {
    let count = min(10_000, PlainSocket.raisedDescriptorLimit() * 3 / 4 - 256)
    try PlainSocket.flood(port: port, count: count) { open in
      let answer = try HTTPFetch.get(port, "/healthz")
      guard answer.status == 200 else { throw HTTPFetchError("healthz \(answer.status) after \(open)") }
    }
    return count
  }

  /// Connections that each send the first byte of a request and no more.
  static func slowloris(port: Int, clients: Int) throws -> [Int32] {
    try (0..<clients).map { _ in
      let fd = try PlainSocket.connect(port: port)
      _ = [UInt8(ascii: "G")].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, PlainSocket.noSignal) }
      return fd
    }
  }

  /// Streams a request line toward a gigabyte until the server closes: the bytes sent by then.
  static func gigabyteRequestLine(port: Int) throws -> Int {
    let fd = try PlainSocket.connect(port: port)
    defer { close(fd) }
    var sent = 0
    let chunk = Array("GET /".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
    while sent < 1 << 30 {
      let n = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, PlainSocket.noSignal) }
      if n <= 0 { break }
      sent += n
    }
    return sent
  }
}

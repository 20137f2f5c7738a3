import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Transport
@testable import WebSocketClient
@testable import WebSocketServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this machine can bind the IPv6 loopback address.
let hasIPv6Loopback: Bool = {
  guard let listener = try? TCPListener(host: "::1") else { return false }
  listener.close()
  return true
}()

@Suite(.ownThread) struct TCPStreamTests {
  @Test func echoesLargePayloadOverIPv4() throws {
    try echoLargePayload(host: "127.0.0.1")
  }

  @Test(.enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1)"))
  func echoesLargePayloadOverIPv6() throws {
    try echoLargePayload(host: "::1")
  }

  /// 4 MiB each way: far more than the socket buffers, so writes are partial and must resume.
  private func echoLargePayload(host: String) throws {
    let listener = try TCPListener(host: host)
    defer { listener.close() }
    let payload = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
    let count = payload.count
    let server = Background { () throws(TransportError) -> Int in
      let peer = try listener.accept(timeout: 30)
      defer { peer.close() }
      var buffer = [UInt8](repeating: 0, count: 65536)
      var echoed = 0
      while echoed < count {
        let n = try readSome(peer, into: &buffer)
        if n == 0 { break }
        try peer.write(Array(buffer[0..<n]), timeout: 30)
        echoed += n
      }
      return echoed
    }
    let client = try TCPStream.connect(host: host, port: listener.port, timeout: 10)
    defer { client.close() }
    let writer = Background { () throws(TransportError) in try client.write(payload, timeout: 30) }
    var received: [UInt8] = []
    received.reserveCapacity(count)
    var buffer = [UInt8](repeating: 0, count: 100_000)
    while received.count < count {
      let n = try readSome(client, into: &buffer)
      if n == 0 { break }
      received += buffer[0..<n]
    }
    #expect(try writer.value() == ())
    #expect(try server.value() == count)
    #expect(received == payload)
    // The server closed after echoing everything: a clean end of stream.
    #expect(try readSome(client, into: &buffer) == 0)
  }

  @Test func readReturnsZeroAtEndOfStream() throws {
    let (client, peer) = try connectedPair()
    defer { client.close() }
    try peer.write(Array("bye".utf8), timeout: 5)
    peer.close()
    var buffer = [UInt8](repeating: 0, count: 16)
    #expect(try readSome(client, into: &buffer) == 3)
    #expect(Array(buffer[0..<3]) == Array("bye".utf8))
    #expect(try readSome(client, into: &buffer) == 0)
  }

  /// Writing to a closed peer throws EPIPE/ECONNRESET instead of raising SIGPIPE.
  @Test func writeAfterThePeerClosedThrows() throws {
    let (client, peer) = try connectedPair()
    defer { client.close() }
    peer.close()
    let error = #expect(throws: TransportError.self) {
      for _ in 0..<10_000 { try client.write([UInt8](repeating: 1, count: 1024), timeout: 30) }
    }
    guard case .syscall(call: "send", let code) = error else {
      Issue.record("expected .syscall(send), got \(String(describing: error))")
      return
    }
    #expect(code == EPIPE || code == ECONNRESET)
  }

  @Test func connectionRefusedIsAConnectError() throws {
    let listener = try TCPListener()
    let port = listener.port
    listener.close()
    #expect(throws: TransportError.connect(host: "127.0.0.1", port: port, errno: ECONNREFUSED)) {
      try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 10)
    }
  }

  @Test func unresolvableNameIsAResolveError() {
    let error = #expect(throws: TransportError.self) {
      try TCPStream.connect(host: "nonexistent.invalid", port: 80, timeout: 10)
    }
    guard case .resolve(let host, let message) = error else {
      Issue.record("expected .resolve, got \(String(describing: error))")
      return
    }
    #expect(host == "nonexistent.invalid")
    #expect(!message.isEmpty)
  }

  @Test func readTimesOutWhenNothingArrives() throws {
    let (client, peer) = try connectedPair()
    defer {
      client.close()
      peer.close()
    }
    var buffer = [UInt8](repeating: 0, count: 16)
    let error = #expect(throws: TransportError.self) {
      try buffer.withUnsafeMutableBytes { raw in try client.read(into: raw, timeout: 0.05) }
    }
    guard case .timeout = error else {
      Issue.record("expected .timeout, got \(String(describing: error))")
      return
    }
  }

  @Test func writeTimesOutWhenThePeerDoesNotRead() throws {
    let (client, peer) = try connectedPair()
    defer {
      client.close()
      peer.close()
    }
    let big = [UInt8](repeating: 7, count: 64 << 20)
    let error = #expect(throws: TransportError.self) { try client.write(big, timeout: 0.2) }
    guard case .timeout = error else {
      Issue.record("expected .timeout, got \(String(describing: error))")
      return
    }
  }

  @Test func shutdownWakesABlockedRead() throws {
    let (client, peer) = try connectedPair()
    defer {
      client.close()
      peer.close()
    }
    let firstByteRead = DispatchSemaphore(value: 0)
    let reader = Background { () throws(TransportError) -> Int in
      var buffer = [UInt8](repeating: 0, count: 16)
      _ = try readSome(client, into: &buffer, timeout: 30)
      firstByteRead.signal()
      return try readSome(client, into: &buffer, timeout: nil)  // nothing more comes: blocks
    }
    try peer.write([42], timeout: 5)
    // Once the first byte is in, the reader is (all but certainly) blocked in its second read.
    #expect(firstByteRead.wait(timeout: .now() + 60) == .success)
    client.shutdown()
    #expect(throws: TransportError.cancelled) { try reader.value() }
    // Later calls fail the same way instead of touching the socket.
    #expect(throws: TransportError.cancelled) { try client.write([1], timeout: 1) }
  }

  @Test func closeWakesABlockedRead() throws {
    let (client, peer) = try connectedPair()
    defer { peer.close() }
    let reader = Background { () throws(TransportError) -> Int in
      var buffer = [UInt8](repeating: 0, count: 16)
      return try readSome(client, into: &buffer, timeout: nil)
    }
    client.close()
    client.close()
    #expect(throws: TransportError.cancelled) { try reader.value() }
  }

  @Test func listenerCloseWakesABlockedAccept() throws {
    let listener = try TCPListener()
    let acceptor = Background { () throws(TransportError) -> TCPStream in
      try listener.accept(timeout: nil)
    }
    listener.close()
    #expect(throws: TransportError.cancelled) { try acceptor.value() }
  }

  @Test func acceptTimesOut() throws {
    let listener = try TCPListener()
    defer { listener.close() }
    let error = #expect(throws: TransportError.self) { try listener.accept(timeout: 0.05) }
    guard case .timeout = error else {
      Issue.record("expected .timeout, got \(String(describing: error))")
      return
    }
  }
}

/// A client and the server side of one loopback connection.
func connectedPair() throws -> (client: TCPStream, server: TCPStream) {
  let listener = try TCPListener()
  defer { listener.close() }
  let client = try TCPStream.connect(host: "127.0.0.1", port: listener.port, timeout: 10)
  let server = try listener.accept(timeout: 10)
  return (client, server)
}

/// Reads once into `buffer` (the error carried out of `withUnsafeMutableBytes` by hand).
func readSome(_ stream: any ByteStream, into buffer: inout [UInt8], timeout: Double? = 30)
  throws(TransportError) -> Int
{
  var failure: TransportError?
  let count = buffer.withUnsafeMutableBytes { raw -> Int in
    do throws(TransportError) { return try stream.read(into: raw, timeout: timeout) } catch {
      failure = error
      return 0
    }
  }
  if let failure { throw failure }
  return count
}

/// Runs a blocking body on its own thread; `value()` waits for it with a generous bound that
/// only guards against a hang.
final class Background<T: Sendable>: Sendable {
  private let result = Mutex<Result<T, TransportError>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () throws(TransportError) -> T) {
    Thread.detachNewThread { [self] in
      let outcome: Result<T, TransportError>
      do throws(TransportError) { outcome = .success(try body()) } catch { outcome = .failure(error) }
      result.withLock { $0 = outcome }
      done.signal()
    }
  }

  func value(within seconds: Double = 60) throws(TransportError) -> T {
    guard done.wait(timeout: .now() + seconds) == .success else {
      throw .syscall(call: "background work hung for \(seconds) s", errno: ETIMEDOUT)
    }
    return try result.withLock { $0! }.get()
  }
}

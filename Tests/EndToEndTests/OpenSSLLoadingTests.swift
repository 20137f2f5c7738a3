import Foundation
import Testing

@testable import TestSupport
@testable import Transport
@testable import WebSocketServer

/// OpenSSL is loaded only when a wss:// connection needs it (issue 11: a ws:// run should not
/// carry libssl and libcrypto's resident pages); the static build links it in instead, and
/// loads no library at all. Checked on the built ticker's own mappings.
@Suite("OpenSSL is loaded only for wss://, or linked in")
struct OpenSSLLoadingTests {
  static func isOpenSSL(_ path: String) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return name.hasPrefix("libssl.so") || name.hasPrefix("libcrypto.so")
  }

  @Test("a ws:// run (the demo) never maps libssl or libcrypto")
  func plainRunDoesNotMapOpenSSL() async throws {
    let ticker = try RunningTicker(["--demo", "--every-trade"])
    // Once prices flow, the connection is up: everything a ws:// run loads is loaded.
    #expect(await ticker.lines(3).count == 3)
    let mapped = try #require(ticker.mappedFiles())
    let sanity = TickerProcess.executableIsStatic ? "/ticker" : "/libc.so"
    #expect(mapped.contains { $0.contains(sanity) }, "the maps were read: \(mapped.sorted())")
    #expect(!mapped.contains(where: Self.isOpenSSL), "\(mapped.filter(Self.isOpenSSL).sorted())")
    ticker.signal(SIGTERM)
    #expect(await ticker.exit().status == 143)
  }

  @Test("wss:// loads it (mapped while the handshake waits); the static build maps no library")
  func secureRunMapsOpenSSL() async throws {
    // A server that accepts and never answers: the ticker sits in its TLS handshake.
    let listener = try TCPListener(host: "127.0.0.1")
    defer { listener.close() }
    let ticker = try RunningTicker(
      [
        "--url", "wss://127.0.0.1:\(listener.port)/", "-s", "X", "--connect-timeout", "60", "--max-retries",
        "0",
      ],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "not-a-real-token"]))
    let accepted = try await offPool { Result { try listener.accept(timeout: 60) } }.get()
    defer { accepted.close() }
    // The ClientHello is written after OpenSSL is loaded: once a byte arrives, it is mapped.
    let read = try await offPool {
      Result {
        var byte = [UInt8](repeating: 0, count: 1)
        return try byte.withUnsafeMutableBytes { try accepted.read(into: $0, timeout: 60) }
      }
    }.get()
    #expect(read == 1)
    let mapped = try #require(ticker.mappedFiles())
    if TickerProcess.executableIsStatic {
      #expect(mapped.contains { $0.hasSuffix("/ticker") }, "the maps were read: \(mapped.sorted())")
      #expect(!mapped.contains { $0.contains(".so") }, "\(mapped.sorted())")
    } else {
      #expect(mapped.contains(where: Self.isOpenSSL), "\(mapped.sorted())")
    }
    ticker.signal(SIGTERM)
    _ = await ticker.exit()
  }

  @Test(
    "without a loadable libssl, wss:// fails at once: exit 69 and the loader's reason",
    .disabled(if: TickerProcess.executableIsStatic, "the static build links OpenSSL in: nothing to load"))
  func missingLibraryIsReported() async throws {
    // An empty libssl.so.3 found first on LD_LIBRARY_PATH: dlopen refuses it.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-libssl-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data().write(to: directory.appendingPathComponent("libssl.so.3"))
    let listener = try TCPListener(host: "127.0.0.1")
    defer { listener.close() }
    let result = try await TickerProcess.run(
      ["--url", "wss://127.0.0.1:\(listener.port)/", "-s", "X", "--max-retries", "3"],
      environment: TickerProcess.cleanEnvironment([
        "FINNHUB_TOKEN": "not-a-real-token", "LD_LIBRARY_PATH": directory.path,
      ]))
    #expect(result.status == 69, "\(result.stderr)")
    #expect(result.stderr.contains("wss:// needs OpenSSL (libssl.so.3), which could not be loaded ("))
    #expect(result.stderr.contains("install libssl3"))
    #expect(!result.stderr.contains("reconnect"), "a missing library is not retried: \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }
}

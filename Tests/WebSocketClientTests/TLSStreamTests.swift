import Foundation
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

/// Whether this build has the OpenSSL transport (Linux only).
#if os(Linux)
  let hasOpenSSLTransport = true
#else
  let hasOpenSSLTransport = false
#endif

/// `openssl s_server -www` on 127.0.0.1 with the test server certificate, on a port it picks.
final class TLSTestServer {
  let child: ChildProcess
  let port: Int

  /// `mode` is `-www` (an HTTP status page) or `-rev` (echoes each line reversed).
  init(ca: TestCA, mode: String = "-www") throws {
    child = try ChildProcess([
      "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", ca.serverCertificate,
      "-key", ca.serverKey, mode,
    ])
    let port = child.waitForOutput { text -> Int? in
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
        let colon = line.lastIndex(of: ":")
      else { return nil }
      return Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    guard let port else {
      throw ChildProcess.Failure(description: "s_server did not start: \(child.text)")
    }
    self.port = port
  }

  deinit { child.terminate() }
}

@Suite(.enabled(if: hasOpenSSLTransport, "the OpenSSL transport is Linux only"), .requires(.openssl))
struct TLSStreamTests {
  private func handshake(
    _ server: TLSTestServer, serverName: String, caFile: String?, timeout: Double = 30,
    trust: SystemTrust = .fromEnvironment()
  ) throws(TransportError) -> TLSStream {
    let tcp = try TCPStream.connect(host: "127.0.0.1", port: server.port, timeout: 30)
    return try TLSStream(
      over: tcp, serverName: serverName, caCertificateFile: caFile, timeout: timeout, trust: trust)
  }

  /// A directory holding the test CA as `name` (its subject hash, `<hash>.0`, when nil).
  private func directoryWithTestCA(_ ca: TestCA, named name: String? = nil) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ticker-trust-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let hash = try ChildProcess.run(["openssl", "x509", "-hash", "-noout", "-in", ca.caFile])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try FileManager.default.copyItem(atPath: ca.caFile, toPath: directory + "/" + (name ?? hash + ".0"))
    return directory
  }

  @Test("a hashed certificate directory alone is trusted: the CA is found by its subject hash")
  func trustsAHashedDirectory() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let directory = try directoryWithTestCA(ca)
    // An empty first entry and a missing directory in the list are passed over.
    let trust = SystemTrust(certificateFile: nil, certificateDirectories: ":/nonexistent:" + directory)
    let stream = try handshake(server, serverName: "localhost", caFile: nil, trust: trust)
    defer { stream.close() }
    #expect(try exchange(stream).response.hasPrefix("HTTP/1.0 200 ok"))
  }

  @Test(
    "an unhashed directory, or a bundle file named: the default paths (file and directory), which do not have the test CA"
  )
  func defaultPathsOtherwise() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let unhashed = try directoryWithTestCA(ca, named: "ticker-test-ca.pem")
    let otherCA = try bundle(ca, with: [], otherCAs: 2)
    defer { try? FileManager.default.removeItem(atPath: otherCA) }
    for trust in [
      SystemTrust(certificateFile: nil, certificateDirectories: unhashed),
      SystemTrust(certificateFile: otherCA, certificateDirectories: unhashed),
      SystemTrust(certificateFile: "/nonexistent/bundle.pem", certificateDirectories: unhashed),
    ] {
      let error = #expect(throws: TransportError.self, "\(trust)") {
        try handshake(server, serverName: "localhost", caFile: nil, trust: trust)
      }
      guard case .certificateVerification(let code, _) = error else {
        Issue.record("expected .certificateVerification, got \(String(describing: error))")
        continue
      }
      #expect([19, 20, 21].contains(code))
    }
  }

  @Test(
    "a bundle file is trusted, read when the chain asks: the test CA among others; a hashed directory beside it too"
  )
  func trustsABundleFile() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let file = try bundle(ca, with: [ca.caFile], otherCAs: 3)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let unhashed = try directoryWithTestCA(ca, named: "ticker-test-ca.pem")
    for _ in 0..<2 {  // the second connection finds the CA kept in its context
      let stream = try handshake(
        server, serverName: "localhost", caFile: nil,
        trust: SystemTrust(certificateFile: file, certificateDirectories: unhashed))
      #expect(try exchange(stream).response.hasPrefix("HTTP/1.0 200 ok"))
      stream.close()
    }
    // The bundle names no directory that has it: the SSL_CERT_DIR list is used beside the file.
    let hashed = try directoryWithTestCA(ca)
    let otherCA = try bundle(ca, with: [], otherCAs: 1)
    defer { try? FileManager.default.removeItem(atPath: otherCA) }
    let stream = try handshake(
      server, serverName: "localhost", caFile: nil,
      trust: SystemTrust(certificateFile: otherCA, certificateDirectories: hashed))
    #expect(try exchange(stream).response.hasPrefix("HTTP/1.0 200 ok"))
    stream.close()
  }

  /// A PEM bundle: `otherCAs` freshly made CA certificates, the files in `with` after the first,
  /// and text between the entries (as in Debian's bundle, which OpenSSL skips).
  private func bundle(_ ca: TestCA, with files: [String], otherCAs: Int) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ticker-bundle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var pems: [String] = []
    for index in 0..<otherCAs {
      let key = directory.appendingPathComponent("k\(index).pem").path
      let cert = directory.appendingPathComponent("c\(index).pem").path
      _ = try ChildProcess.run([
        "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=ticker other CA \(index)",
      ])
      pems.append(try String(contentsOfFile: cert, encoding: .utf8))
    }
    for file in files {
      pems.insert(try String(contentsOfFile: file, encoding: .utf8), at: min(1, pems.count))
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ticker-bundle-\(UUID().uuidString).pem"
    )
    .path
    let text = pems.enumerated().map { "# entry \($0.offset)\n" + $0.element }.joined(separator: "\n")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Sends an HTTP request to `s_server -www` and reads the whole response.
  private func exchange(_ stream: any ByteStream) throws -> (response: String, end: TransportError?) {
    try stream.write(Array("GET / HTTP/1.0\r\n\r\n".utf8), timeout: 30)
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    do {
      while true {
        let n = try readSome(stream, into: &buffer)
        if n == 0 { return (String(decoding: response, as: UTF8.self), nil) }
        response += buffer[0..<n]
      }
    } catch {
      return (String(decoding: response, as: UTF8.self), error)
    }
  }

  @Test func connectsToATrustedServerByName() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let stream = try handshake(server, serverName: "localhost", caFile: ca.caFile)
    defer { stream.close() }
    let (response, end) = try exchange(stream)
    #expect(response.hasPrefix("HTTP/1.0 200 ok"))
    #expect(response.contains("</HTML>"))  // the whole status page arrived
    // s_server -www ends with a TLS close_notify: a clean end of stream, read returns 0.
    #expect(end == nil)
  }

  /// Reader and writer work concurrently on one TLS connection (the SSL lock must never be held
  /// while waiting): ~600 KB of lines go out while the reversed lines come back.
  @Test func concurrentReadAndWriteOfManyLines() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca, mode: "-rev")
    let stream = try handshake(server, serverName: "localhost", caFile: ca.caFile)
    defer { stream.close() }
    let lines = (0..<4000).map { "line \($0) " + String(repeating: "abcdefghij", count: 14) }
    let outgoing = Array(lines.map { $0 + "\n" }.joined().utf8)
    let writer = Background { () throws(TransportError) in try stream.write(outgoing, timeout: 30) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    let expected = lines.map { String($0.reversed()) }
    var newlines = 0
    while newlines < lines.count {
      let n = try readSome(stream, into: &buffer)
      if n == 0 { break }
      received += buffer[0..<n]
      newlines += buffer[0..<n].count(where: { $0 == UInt8(ascii: "\n") })
    }
    try writer.value()
    let echoed = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(echoed == expected)
  }

  /// Writing after the server has gone must throw, not raise SIGPIPE (which would kill the test
  /// process): OpenSSL writes through our MSG_NOSIGNAL socket BIO.
  @Test func writeAfterThePeerClosedThrows() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let stream = try handshake(server, serverName: "localhost", caFile: ca.caFile)
    defer { stream.close() }
    #expect(try exchange(stream).end == nil)
    server.child.terminate()
    let error = #expect(throws: TransportError.self) {
      for _ in 0..<10_000 { try stream.write([UInt8](repeating: 1, count: 1024), timeout: 30) }
    }
    #expect(error != nil)
  }

  @Test func connectorVerifiesAnIPAddressCertificate() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let stream = try TransportConnector.connect(
      host: "127.0.0.1", port: server.port, secure: true, caCertificateFile: ca.caFile, timeout: 30)
    defer { stream.close() }
    #expect(stream is TLSStream)
    #expect(try exchange(stream).response.hasPrefix("HTTP/1.0 200 ok"))
  }

  @Test func refusesAWrongHostName() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let error = #expect(throws: TransportError.self) {
      try handshake(server, serverName: "not-localhost.example", caFile: ca.caFile)
    }
    guard case .certificateVerification(let code, let message) = error else {
      Issue.record("expected .certificateVerification, got \(String(describing: error))")
      return
    }
    #expect(code == 62)  // X509_V_ERR_HOSTNAME_MISMATCH
    #expect(!message.isEmpty)
  }

  @Test func refusesAnIPAddressNotInTheCertificate() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let error = #expect(throws: TransportError.self) {
      try handshake(server, serverName: "127.0.0.2", caFile: ca.caFile)
    }
    guard case .certificateVerification(let code, _) = error else {
      Issue.record("expected .certificateVerification, got \(String(describing: error))")
      return
    }
    #expect(code == 64)  // X509_V_ERR_IP_ADDRESS_MISMATCH
  }

  @Test func refusesAnUnknownCA() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let error = #expect(throws: TransportError.self) {
      try handshake(server, serverName: "localhost", caFile: ca.otherCAFile)
    }
    guard case .certificateVerification(let code, _) = error else {
      Issue.record("expected .certificateVerification, got \(String(describing: error))")
      return
    }
    #expect(code == 20)  // X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
  }

  @Test func refusesTheTestCAWithoutCACert() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca)
    let error = #expect(throws: TransportError.self) {
      try handshake(server, serverName: "localhost", caFile: nil)
    }
    guard case .certificateVerification(let code, _) = error else {
      Issue.record("expected .certificateVerification, got \(String(describing: error))")
      return
    }
    #expect([19, 20, 21].contains(code))
  }

  @Test func unreadableCAFileIsATLSError() throws {
    let listener = try TCPListener()
    defer { listener.close() }
    let tcp = try TCPStream.connect(host: "127.0.0.1", port: listener.port, timeout: 30)
    let error = #expect(throws: TransportError.self) {
      try TLSStream(
        over: tcp, serverName: "localhost", caCertificateFile: "/nonexistent/ca.pem", timeout: 30)
    }
    guard case .tls(let text) = error else {
      Issue.record("expected .tls, got \(String(describing: error))")
      return
    }
    #expect(text.contains("/nonexistent/ca.pem"))
  }

  @Test func handshakeTimesOutWhenTheServerIsSilent() throws {
    let listener = try TCPListener()
    defer { listener.close() }
    let tcp = try TCPStream.connect(host: "127.0.0.1", port: listener.port, timeout: 30)
    let peer = try listener.accept(timeout: 30)
    defer { peer.close() }
    let error = #expect(throws: TransportError.self) {
      try TLSStream(over: tcp, serverName: "localhost", caCertificateFile: nil, timeout: 0.2)
    }
    guard case .timeout = error else {
      Issue.record("expected .timeout, got \(String(describing: error))")
      return
    }
  }

  @Test func shutdownWakesABlockedTLSRead() throws {
    let ca = try TestCA.shared()
    let server = try TLSTestServer(ca: ca, mode: "-rev")
    let stream = try handshake(server, serverName: "localhost", caFile: ca.caFile)
    defer { stream.close() }
    let firstLineRead = DispatchSemaphore(value: 0)
    let reader = Background { () throws(TransportError) -> Int in
      var buffer = [UInt8](repeating: 0, count: 64)
      _ = try readSome(stream, into: &buffer, timeout: 30)
      firstLineRead.signal()
      return try readSome(stream, into: &buffer, timeout: nil)  // nothing more comes: blocks
    }
    try stream.write(Array("ab\n".utf8), timeout: 30)
    #expect(firstLineRead.wait(timeout: .now() + 60) == .success)
    stream.shutdown()
    #expect(throws: TransportError.cancelled) { try reader.value() }
  }
}

import TestSupport
import Testing

@testable import Transport
@testable import WebSocketClient
@testable import WebSocketWire

/// `wss://` for real: the native engine's OpenSSL transport against Python's `websockets` server
/// serving TLS (Python's `ssl`) with a certificate for `localhost` and 127.0.0.1 from the test CA.
/// The time limit only bounds a hang.
@Suite(
  .enabled(if: hasOpenSSLTransport, "the OpenSSL transport is Linux only"),
  .requires(.pythonWebsockets, .openssl),
  .timeLimit(.minutes(1)))
struct SecureInteropTests {
  /// The verification failure inside `error`, if that is what it is.
  private func verificationCode(_ error: WebSocketError?) -> Int? {
    if case .transport(.certificateVerification(let code, _)) = error { return code }
    return nil
  }

  /// The test CA (made once per process by the `openssl` command, off the concurrency pool).
  private func testCA() async throws -> TestCA {
    try await offPool { try TestCA.shared() }
  }

  private func connectionError(
    _ engine: NativeEngine = NativeEngine(), to url: WebSocketURL, caFile: String?
  ) async -> WebSocketError? {
    await #expect(throws: WebSocketError.self) {
      _ = try await engine.connect(to: url, options: ConnectOptions(caCertificateFile: caFile))
    }
  }

  @Test func echoOverTLSWithTheTestCA() async throws {
    let ca = try await testCA()
    let peer = try await PythonPeer.start("echo", tls: ca)
    defer { peer.stop() }
    let connection = try await NativeEngine().connect(
      to: peer.url(name: "localhost", secure: true), options: ConnectOptions(caCertificateFile: ca.caFile))
    let large = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let sent: [WebSocketMessage] = [.text("over TLS"), .binary(large), .text("")]
    for message in sent { try await connection.send(message) }
    #expect(try await connection.receive(sent.count) == sent)
    try await connection.ping(Array("tls".utf8))
    await connection.close(CloseStatus(code: .normalClosure, reason: "done"), timeout: 10)
    #expect(try await connection.remainingMessages().isEmpty)
    #expect(await peer.closeReport() == "1000 done")
  }

  /// A host name the certificate does not list (62, X509_V_ERR_HOSTNAME_MISMATCH). The engine's
  /// transport here resolves every name to 127.0.0.1 (like an /etc/hosts entry would) and verifies
  /// the certificate against the URL's host, exactly as the default transport does; this keeps
  /// the test independent of the machine's name service.
  @Test func hostNameNotInTheCertificateIsRefused() async throws {
    let ca = try await testCA()
    let peer = try await PythonPeer.start("echo", tls: ca)
    defer { peer.stop() }
    let loopbackResolver = NativeEngine(transport: { url, options throws(TransportError) in
      let tcp = try TCPStream.connect(host: "127.0.0.1", port: url.port, timeout: options.connectTimeout)
      return try TLSStream(
        over: tcp, serverName: url.host, caCertificateFile: options.caCertificateFile,
        timeout: options.connectTimeout)
    })
    // Control: the same transport accepts the name the certificate is for.
    let good = try await loopbackResolver.connect(
      to: peer.url(name: "localhost", secure: true), options: ConnectOptions(caCertificateFile: ca.caFile))
    await good.close(CloseStatus(code: .normalClosure), timeout: 10)
    let error = await connectionError(
      loopbackResolver, to: try peer.url(name: "not-localhost.test", secure: true), caFile: ca.caFile)
    #expect(verificationCode(error) == 62, "got \(String(describing: error))")
  }

  /// A certificate that names the host only in its subject's CN, with no subjectAltName: refused
  /// (62) although the CN matches and the test CA signed it. RFC 6125 §6.4.4 and the CA/Browser
  /// Forum's rules say to ignore the CN; OpenSSL would fall back to it unless told not to.
  @Test func commonNameWithoutSubjectAltNameIsRefused() async throws {
    let ca = try await testCA()
    let peer = try await PythonPeer.start(
      "echo", tls: ca, certificate: (ca.commonNameOnlyCertificate, ca.commonNameOnlyKey))
    defer { peer.stop() }
    let error = await connectionError(to: try peer.url(name: "localhost", secure: true), caFile: ca.caFile)
    #expect(verificationCode(error) == 62, "got \(String(describing: error))")
  }

  /// An IP address the certificate does not list (64, X509_V_ERR_IP_ADDRESS_MISMATCH), through
  /// the default transport: the server listens on 127.0.0.2, the certificate has 127.0.0.1.
  @Test func ipAddressNotInTheCertificateIsRefused() async throws {
    let ca = try await testCA()
    let peer = try await PythonPeer.start("echo", host: "127.0.0.2", tls: ca)
    defer { peer.stop() }
    let error = await connectionError(to: try peer.url(secure: true), caFile: ca.caFile)
    #expect(verificationCode(error) == 64, "got \(String(describing: error))")
  }

  /// Trusting only a CA that did not sign the server's certificate (20, unable to get the
  /// issuer certificate locally).
  @Test func certificateFromAnUntrustedCAIsRefused() async throws {
    let ca = try await testCA()
    let peer = try await PythonPeer.start("echo", tls: ca)
    defer { peer.stop() }
    let error = await connectionError(
      to: try peer.url(name: "localhost", secure: true), caFile: ca.otherCAFile)
    #expect(verificationCode(error) == 20, "got \(String(describing: error))")
  }

  /// Without `--cacert` only the system store is trusted, and it does not know the test CA.
  @Test func systemStoreAloneDoesNotTrustTheTestCA() async throws {
    let ca = try await testCA()
    let peer = try await PythonPeer.start("echo", tls: ca)
    defer { peer.stop() }
    let error = await connectionError(to: try peer.url(name: "localhost", secure: true), caFile: nil)
    #expect(verificationCode(error) != nil, "got \(String(describing: error))")
  }
}

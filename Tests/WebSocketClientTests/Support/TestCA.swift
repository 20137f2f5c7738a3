import Foundation
import TestSupport

/// Certificates made at test time with the `openssl` command in a temporary directory:
/// a test CA, a server certificate for `localhost` and 127.0.0.1 signed by it, a second
/// certificate signed by it that names `localhost` only in its subject's CN (no subjectAltName),
/// and a second, unrelated CA that did not sign anything the server presents.
struct TestCA: Sendable {
  let directory: String
  var caFile: String { directory + "/ca.pem" }
  var otherCAFile: String { directory + "/other-ca.pem" }
  var serverCertificate: String { directory + "/server.pem" }
  var serverKey: String { directory + "/server.key" }
  /// CN=localhost and no subjectAltName, signed by the test CA.
  var commonNameOnlyCertificate: String { directory + "/cn-only.pem" }
  var commonNameOnlyKey: String { directory + "/cn-only.key" }

  /// Made once per test process.
  static func shared() throws -> TestCA {
    try TestTools.require([.openssl])
    return try made.get()
  }

  private static let made: Result<TestCA, ChildProcess.Failure> = {
    do {
      return .success(try make())
    } catch let failure as ChildProcess.Failure {
      return .failure(failure)
    } catch {
      return .failure(ChildProcess.Failure(description: "\(error)"))
    }
  }()

  private static func make() throws -> TestCA {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ticker-test-ca-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let ca = TestCA(directory: directory)
    let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    let caExtensions = [
      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    ]
    for (name, subject) in [("ca", "/CN=ticker test CA"), ("other-ca", "/CN=ticker unrelated CA")] {
      try ChildProcess.run(
        ["openssl", "req", "-x509"] + key + [
          "-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).pem", "-days", "2",
          "-subj", subject,
        ] + caExtensions)
    }
    try ChildProcess.run(
      ["openssl", "req", "-new"] + key + [
        "-keyout", ca.serverKey, "-out", "\(directory)/server.csr", "-subj", "/CN=localhost",
      ])
    let extensions = """
      subjectAltName=DNS:localhost,IP:127.0.0.1
      basicConstraints=CA:FALSE
      keyUsage=critical,digitalSignature
      extendedKeyUsage=serverAuth

      """
    try extensions.write(toFile: "\(directory)/server.ext", atomically: true, encoding: .utf8)
    try ChildProcess.run([
      "openssl", "x509", "-req", "-in", "\(directory)/server.csr", "-CA", ca.caFile,
      "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", ca.serverCertificate,
      "-days", "2", "-extfile", "\(directory)/server.ext",
    ])
    try ChildProcess.run(
      ["openssl", "req", "-new"] + key + [
        "-keyout", ca.commonNameOnlyKey, "-out", "\(directory)/cn-only.csr", "-subj", "/CN=localhost",
      ])
    let cnOnlyExtensions = """
      basicConstraints=CA:FALSE
      keyUsage=critical,digitalSignature
      extendedKeyUsage=serverAuth

      """
    try cnOnlyExtensions.write(toFile: "\(directory)/cn-only.ext", atomically: true, encoding: .utf8)
    try ChildProcess.run([
      "openssl", "x509", "-req", "-in", "\(directory)/cn-only.csr", "-CA", ca.caFile,
      "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", ca.commonNameOnlyCertificate,
      "-days", "2", "-extfile", "\(directory)/cn-only.ext",
    ])
    return ca
  }
}

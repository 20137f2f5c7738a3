import Foundation

/// Certificates made at test time with the `openssl` command in a temporary directory:
/// a test CA, a server certificate for `localhost` and 127.0.0.1 signed by it, a second
/// certificate signed by it that names `localhost` only in its subject's CN (no subjectAltName),
/// and a second, unrelated CA that did not sign anything the server presents.
package struct TestCA: Sendable {
  package let directory: String
  package var caFile: String { directory + "/ca.pem" }
  package var otherCAFile: String { directory + "/other-ca.pem" }
  package var serverCertificate: String { directory + "/server.pem" }
  package var serverKey: String { directory + "/server.key" }
  /// CN=localhost and no subjectAltName, signed by the test CA.
  package var commonNameOnlyCertificate: String { directory + "/cn-only.pem" }
  package var commonNameOnlyKey: String { directory + "/cn-only.key" }

  /// Made once per test process.
  package static func shared() throws -> TestCA {
    try TestTools.require([.openssl])
    return try made.get()
  }

  private static let made: Result<TestCA, TestCAError> = {
    do {
      return .success(try make())
    } catch let failure as TestCAError {
      return .failure(failure)
    } catch {
      return .failure(TestCAError(description: "\(error)"))
    }
  }()

  /// Runs `openssl` with `arguments` to completion; throws with its output when it fails.
  private static func openssl(_ arguments: [String]) throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-openssl-\(UUID()).log")
      .path
    defer { try? FileManager.default.removeItem(atPath: log) }
    let child = try Spawned(
      TestTools.firstExecutable(["/usr/bin/openssl", "/usr/local/bin/openssl"]) ?? "/usr/bin/openssl",
      arguments, standardOutput: .file(log), standardError: .file(log))
    let ending = child.waitForExit(within: 60)
    guard ending == .exited(0) else {
      let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      throw TestCAError(
        description:
          "openssl \(arguments.joined(separator: " ")): \(ending.map { "\($0)" } ?? "hung"): \(output)")
    }
  }

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
      try openssl(
        ["req", "-x509"] + key + [
          "-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).pem", "-days", "2",
          "-subj", subject,
        ] + caExtensions)
    }
    try openssl(
      ["req", "-new"] + key + [
        "-keyout", ca.serverKey, "-out", "\(directory)/server.csr", "-subj", "/CN=localhost",
      ])
    let extensions = """
      subjectAltName=DNS:localhost,IP:127.0.0.1
      basicConstraints=CA:FALSE
      keyUsage=critical,digitalSignature
      extendedKeyUsage=serverAuth

      """
    try extensions.write(toFile: "\(directory)/server.ext", atomically: true, encoding: .utf8)
    try openssl([
      "x509", "-req", "-in", "\(directory)/server.csr", "-CA", ca.caFile,
      "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", ca.serverCertificate,
      "-days", "2", "-extfile", "\(directory)/server.ext",
    ])
    try openssl(
      ["req", "-new"] + key + [
        "-keyout", ca.commonNameOnlyKey, "-out", "\(directory)/cn-only.csr", "-subj", "/CN=localhost",
      ])
    let cnOnlyExtensions = """
      basicConstraints=CA:FALSE
      keyUsage=critical,digitalSignature
      extendedKeyUsage=serverAuth

      """
    try cnOnlyExtensions.write(toFile: "\(directory)/cn-only.ext", atomically: true, encoding: .utf8)
    try openssl([
      "x509", "-req", "-in", "\(directory)/cn-only.csr", "-CA", ca.caFile,
      "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", ca.commonNameOnlyCertificate,
      "-days", "2", "-extfile", "\(directory)/cn-only.ext",
    ])
    return ca
  }
}

package struct TestCAError: Error, CustomStringConvertible {
  package var description: String
}

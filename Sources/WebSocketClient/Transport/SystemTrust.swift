#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the system's trusted CAs are, as OpenSSL's environment variables say: whether
/// SSL_CERT_FILE names a bundle file, and the SSL_CERT_DIR directory list (nil: OpenSSL's
/// built-in directory). A value, so that tests can give their own without touching the
/// process's environment.
///
/// With no SSL_CERT_FILE and a hashed directory (Debian's /etc/ssl/certs), the native engine
/// trusts the directory only, and OpenSSL reads the one CA a chain needs instead of parsing the
/// whole bundle for each connection (`shim_SSL_CTX_use_system_trust`).
public struct SystemTrust: Sendable, Equatable {
  public var certificateFileIsSet: Bool
  public var certificateDirectories: String?

  public init(certificateFileIsSet: Bool, certificateDirectories: String?) {
    self.certificateFileIsSet = certificateFileIsSet
    self.certificateDirectories = certificateDirectories
  }

  /// This process's SSL_CERT_FILE and SSL_CERT_DIR.
  public static func fromEnvironment() -> SystemTrust {
    SystemTrust(
      certificateFileIsSet: getenv("SSL_CERT_FILE") != nil,
      certificateDirectories: getenv("SSL_CERT_DIR").map { String(cString: $0) })
  }
}

extension Optional where Wrapped == String {
  /// The string as a C string to `body`, or NULL.
  func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
    switch self {
    case .some(let text): text.withCString { body($0) }
    case .none: body(nil)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the system's trusted CAs are, as OpenSSL's environment variables say: the bundle file
/// SSL_CERT_FILE names (nil: OpenSSL's built-in file), and the SSL_CERT_DIR directory list (nil:
/// OpenSSL's built-in directory). A value, so that tests can give their own without touching the
/// process's environment.
///
/// With no SSL_CERT_FILE and a hashed directory (Debian's /etc/ssl/certs), the native engine
/// trusts the directory only, and OpenSSL reads the one CA a chain needs. Otherwise the bundle
/// file is read when a chain asks for an issuer, keeping only the CAs it names, instead of
/// being parsed whole for each context (`shim_SSL_CTX_use_system_trust`).
public struct SystemTrust: Sendable, Equatable, Hashable {
  public var certificateFile: String?
  public var certificateDirectories: String?

  public init(certificateFile: String?, certificateDirectories: String?) {
    self.certificateFile = certificateFile
    self.certificateDirectories = certificateDirectories
  }

  /// This process's SSL_CERT_FILE and SSL_CERT_DIR.
  public static func fromEnvironment() -> SystemTrust {
    SystemTrust(
      certificateFile: getenv("SSL_CERT_FILE").map { String(cString: $0) },
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

#if canImport(COpenSSLShim)
  import COpenSSLShim
#endif

/// How this executable reaches OpenSSL for wss://: linked in (the static build), or loaded from
/// the system's libssl.so.3 when the first TLS connection needs it.
public enum OpenSSLLinkage {
  /// The version text of the OpenSSL linked into this executable (e.g. "OpenSSL 3.0.17 1 Jul
  /// 2025"); nil when OpenSSL is loaded at run time (asking does not load it) or not used.
  public static var linkedVersion: String? {
    #if canImport(COpenSSLShim)
      shim_openssl_linked_version().map { String(cString: $0) }
    #else
      nil
    #endif
  }
}

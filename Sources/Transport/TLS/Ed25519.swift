#if canImport(COpenSSLShim)
  import COpenSSLShim
#endif

/// Ed25519 signatures (RFC 8032) through OpenSSL, as the TLS transport loads it: what a NATS
/// server's nonce is signed with for NKEY authentication. On platforms without the OpenSSL shim
/// (macOS) `sign` throws `.tlsUnavailable`.
public enum Ed25519 {
  public struct Signed: Sendable, Equatable {
    /// 64 bytes.
    public var signature: [UInt8]
    /// 32 bytes: the public key of the seed.
    public var publicKey: [UInt8]
  }

  /// Signs `message` with the private key `seed` (32 bytes).
  public static func sign(_ message: [UInt8], seed: [UInt8]) throws(TransportError) -> Signed {
    guard seed.count == 32 else { throw .tls("an Ed25519 private key is 32 bytes, not \(seed.count)") }
    #if canImport(COpenSSLShim)
      var loadError: UnsafePointer<CChar>?
      guard shim_openssl_load(&loadError) != 0 else {
        throw .tlsLibraryMissing(loadError.map { String(cString: $0) } ?? "unknown reason")
      }
      var signature = [UInt8](repeating: 0, count: 64)
      var publicKey = [UInt8](repeating: 0, count: 32)
      guard shim_ed25519_sign(seed, message, message.count, &signature, &publicKey) == 1 else {
        throw .tls("OpenSSL could not make an Ed25519 signature")
      }
      return Signed(signature: signature, publicKey: publicKey)
    #else
      throw .tlsUnavailable
    #endif
  }
}

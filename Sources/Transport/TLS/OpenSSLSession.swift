#if canImport(COpenSSLShim)
  import COpenSSLShim
  import Glibc
  import Synchronization

  /// One OpenSSL client connection (`SSL*`) on a socket, with every call made under a lock.
  /// `TLSStream` does the waiting; this type only makes single non-blocking attempts.
  final class OpenSSLSession: Sendable {
    /// The outcome of one non-blocking attempt.
    enum Step {
      case done(Int32)
      case wantRead
      case wantWrite
      /// The peer sent close_notify.
      case closed
      case failed(TransportError)
    }

    /// The `SSL*`; only ever touched under the mutex.
    private let ssl: Mutex<OpaquePointer>

    /// Configures a client connection on `fd` (which must outlive this object's use of it).
    init(
      fd: Int32, serverName: String, caCertificateFile: String?, trust: SystemTrust,
      cache: OpenSSLContextCache = .shared
    ) throws(TransportError) {
      var loadError: UnsafePointer<CChar>?
      guard shim_openssl_load(&loadError) != 0 else {
        throw .tlsLibraryMissing(loadError.map { String(cString: $0) } ?? "unknown reason")
      }
      ERR_clear_error()
      let key = OpenSSLContextCache.Key(caCertificateFile: caCertificateFile, trust: trust)
      let made = try cache.withContext(
        for: key, make: { () throws(TransportError) in try Self.makeContext(key) },
        { context throws(TransportError) in SSL_new(context) })
      guard let ssl = made else { throw .tls("SSL_new failed: \(Self.drainErrors())") }
      do throws(TransportError) {
        if Self.isIPLiteral(serverName) {
          guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) == 1 else {
            throw .tls("cannot verify against IP address \(serverName): \(Self.drainErrors())")
          }
        } else {
          shim_SSL_never_check_subject(ssl)
          guard SSL_set1_host(ssl, serverName) == 1,
            shim_SSL_set_tlsext_host_name(ssl, serverName) == 1
          else { throw .tls("cannot use host name \(serverName): \(Self.drainErrors())") }
        }
        guard let bio = shim_BIO_new_nosigpipe_socket(fd) else {
          throw .tls("cannot create the socket BIO: \(Self.drainErrors())")
        }
        SSL_set_bio(ssl, bio, bio)
        SSL_set_connect_state(ssl)
      } catch {
        SSL_free(ssl)
        throw error
      }
      self.ssl = Mutex(ssl)
    }

    deinit {
      ssl.withLock { SSL_free($0) }
    }

    /// A client context for `key`: TLS 1.2 at least, partial writes, the system's CAs and the CA
    /// file, peers verified. The caller owns the reference.
    static func makeContext(_ key: OpenSSLContextCache.Key) throws(TransportError) -> OpaquePointer {
      guard let context = SSL_CTX_new(TLS_client_method()) else {
        throw .tls("SSL_CTX_new failed: \(Self.drainErrors())")
      }
      do throws(TransportError) {
        guard shim_SSL_CTX_set_min_proto_version(context, shim_TLS1_2_VERSION()) == 1 else {
          throw .tls("cannot require TLS 1.2: \(Self.drainErrors())")
        }
        _ = shim_SSL_CTX_set_mode(
          context, shim_SSL_MODE_ENABLE_PARTIAL_WRITE() | shim_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER())
        let loaded = key.trust.certificateFile.withOptionalCString { file in
          key.trust.certificateDirectories.withOptionalCString {
            shim_SSL_CTX_use_system_trust(context, file, $0)
          }
        }
        guard loaded == 1 else {
          throw .tls("cannot load the system trust store: \(Self.drainErrors())")
        }
        if let file = key.caCertificateFile {
          guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
            throw .tls("cannot load CA certificates from \(file): \(Self.drainErrors())")
          }
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        return context
      } catch {
        SSL_CTX_free(context)
        throw error
      }
    }

    /// Makes one attempt of `call` under the lock and classifies the result (reading OpenSSL's
    /// per-thread error queue on the same thread, inside the lock).
    func attempt(handshake: Bool, _ call: (OpaquePointer) -> Int32) -> Step {
      ssl.withLock { handle -> Step in
        let ssl = handle
        ERR_clear_error()
        let result = call(ssl)
        if result > 0 { return .done(result) }
        let code = SSL_get_error(ssl, result)
        let savedErrno = errno
        switch code {
        case SSL_ERROR_WANT_READ:
          return .wantRead
        case SSL_ERROR_WANT_WRITE:
          return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
          return .closed
        default:
          if handshake {
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
              let text = X509_verify_cert_error_string(verify).map { String(cString: $0) } ?? ""
              ERR_clear_error()
              return .failed(.certificateVerification(code: Int(verify), message: text))
            }
          }
          if code == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 {
            // The socket failed, or (errno 0) the peer closed TCP without a TLS close_notify.
            return .failed(savedErrno == 0 ? .connectionClosed : .syscall(call: "SSL", errno: savedErrno))
          }
          if ERR_GET_REASON(ERR_peek_error()) == SSL_R_UNEXPECTED_EOF_WHILE_READING {
            ERR_clear_error()
            return .failed(.connectionClosed)
          }
          return .failed(.tls(Self.drainErrors()))
        }
      }
    }

    /// One non-blocking attempt to send close_notify after a completed handshake.
    func sendCloseNotify() {
      ssl.withLock { handle in
        if SSL_is_init_finished(handle) == 1 { _ = SSL_shutdown(handle) }
        ERR_clear_error()
      }
    }

    /// OpenSSL's queued error texts (ERR_error_string_n), oldest first, and clears the queue.
    static func drainErrors() -> String {
      var texts: [String] = []
      while case let code = ERR_get_error(), code != 0 {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
      }
      return texts.isEmpty ? "unknown TLS error" : texts.joined(separator: "; ")
    }

    static func isIPLiteral(_ host: String) -> Bool {
      var v4 = in_addr()
      var v6 = in6_addr()
      return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
  }
#endif

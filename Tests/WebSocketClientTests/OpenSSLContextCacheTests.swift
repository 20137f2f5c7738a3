#if canImport(COpenSSLShim)
  import COpenSSLShim
  import Foundation
  import Synchronization
  import TestSupport
  import Testing
  import TickerSupport

  @testable import Transport

  /// `OpenSSLContextCache`: a context is made once per trust setting and reused until it is
  /// `lifetime` old; the least recently used goes when the cache is full; a failure is not kept.
  /// With real contexts (OpenSSL loaded as the engine loads it).
  @Suite("OpenSSL context cache")
  struct OpenSSLContextCacheTests {
    /// The cache's clock, moved on by the test.
    final class FakeTime: Sendable {
      let now = Mutex(ContinuousClock.now)
    }

    final class Harness: Sendable {
      let time = FakeTime()
      let made = Mutex(0)
      let cache: OpenSSLContextCache

      init(lifetime: Duration = .seconds(100), capacity: Int = 4) throws {
        var error: UnsafePointer<CChar>?
        try #require(shim_openssl_load(&error) != 0)
        let time = self.time
        cache = OpenSSLContextCache(lifetime: lifetime, capacity: capacity, now: { time.now.withLock { $0 } })
      }

      /// The context the cache gives for `key`, as a number to compare.
      func context(_ key: OpenSSLContextCache.Key) throws(TransportError) -> UInt {
        try cache.withContext(
          for: key,
          make: { () throws(TransportError) -> OpaquePointer in
            made.withLock { $0 += 1 }
            guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls("SSL_CTX_new failed") }
            return context
          },
          { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) })
      }

      func advance(_ duration: Duration) { time.now.withLock { $0 += duration } }
    }

    static func key(_ file: String?) -> OpenSSLContextCache.Key {
      OpenSSLContextCache.Key(
        caCertificateFile: file, trust: SystemTrust(certificateFile: nil, certificateDirectories: nil))
    }

    @Test("the same trust setting gets the same context; another gets its own")
    func reused() throws {
      let harness = try Harness()
      let first = try harness.context(Self.key("/a.pem"))
      #expect(try harness.context(Self.key("/a.pem")) == first)
      #expect(harness.made.withLock { $0 } == 1)
      let other = try harness.context(Self.key("/b.pem"))
      #expect(other != first)
      let directories = OpenSSLContextCache.Key(
        caCertificateFile: "/a.pem",
        trust: SystemTrust(certificateFile: nil, certificateDirectories: "/d"))
      _ = try harness.context(directories)
      #expect(harness.made.withLock { $0 } == 3)
      #expect(harness.cache.count == 3)
    }

    @Test("a context as old as the lifetime is made again (a changed CA file is read then)")
    func expires() throws {
      let harness = try Harness(lifetime: .seconds(100))
      _ = try harness.context(Self.key(nil))
      harness.advance(.seconds(99))
      _ = try harness.context(Self.key(nil))
      #expect(harness.made.withLock { $0 } == 1)
      harness.advance(.seconds(1))
      _ = try harness.context(Self.key(nil))
      #expect(harness.made.withLock { $0 } == 2)
      #expect(harness.cache.count == 1)
    }

    @Test("full: the least recently used context goes")
    func evictsLeastRecentlyUsed() throws {
      let harness = try Harness(capacity: 2)
      _ = try harness.context(Self.key("/a.pem"))
      _ = try harness.context(Self.key("/b.pem"))
      _ = try harness.context(Self.key("/a.pem"))  // b is now the least recently used
      _ = try harness.context(Self.key("/c.pem"))
      #expect(harness.cache.count == 2)
      #expect(harness.made.withLock { $0 } == 3)
      _ = try harness.context(Self.key("/a.pem"))
      #expect(harness.made.withLock { $0 } == 3)
      _ = try harness.context(Self.key("/b.pem"))
      #expect(harness.made.withLock { $0 } == 4)
    }

    #if DEBUG
      /// The invariant that lets the cache's state be `@unchecked Sendable`: a cached context is
      /// only used under its lock (so it is never freed while in use), and what is made from it
      /// (an `SSL`, with its own reference) outlives its eviction.
      @Test("a context is used only under the cache's lock; an SSL made from it outlives its eviction")
      func usedOnlyUnderTheLock() throws {
        let harness = try Harness(capacity: 1)
        let ssl = try harness.cache.withContext(
          for: Self.key("/a.pem"),
          make: { () throws(TransportError) -> OpaquePointer in
            guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls("SSL_CTX_new failed") }
            return context
          },
          { context in
            #expect(LockOrderChecker.held == [.tlsContexts])
            return SSL_new(context)
          })
        #expect(LockOrderChecker.held.isEmpty)
        _ = try harness.context(Self.key("/b.pem"))  // evicts /a.pem's context
        #expect(harness.cache.count == 1)
        SSL_free(ssl)
      }
    #endif

    @Test("a context that cannot be made is not kept: the next connection tries again")
    func failureNotKept() throws {
      let harness = try Harness()
      #expect(throws: TransportError.self) {
        try harness.cache.withContext(
          for: Self.key("/x.pem"), make: { () throws(TransportError) -> OpaquePointer in throw .tls("no") },
          { _ in () })
      }
      #expect(harness.cache.count == 0)
      _ = try harness.context(Self.key("/x.pem"))
      #expect(harness.made.withLock { $0 } == 1)
    }

    @Test(
      "a reconnect does not read the CA file again: it verifies after the file is gone",
      .requires(.openssl))
    func reconnectUsesTheCachedContext() throws {
      let ca = try TestCA.shared()
      let server = try TLSTestServer(ca: ca)
      let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        .path
      try FileManager.default.copyItem(atPath: ca.caFile, toPath: copy)
      let trust = SystemTrust(certificateFile: nil, certificateDirectories: "/nonexistent")
      func connect() throws -> TLSStream {
        let tcp = try TCPStream.connect(host: "127.0.0.1", port: server.port, timeout: 30)
        return try TLSStream(
          over: tcp, serverName: "localhost", caCertificateFile: copy, timeout: 30, trust: trust)
      }
      try connect().close()
      try FileManager.default.removeItem(atPath: copy)
      try connect().close()
    }
  }
#endif

#if canImport(COpenSSLShim)
  import COpenSSLShim
  import Synchronization
  import TickerSupport

  /// The configured client contexts (`SSL_CTX`), one per trust setting, kept for the connections
  /// that follow (every reconnect) for up to `lifetime`, as curl keeps its CA store (24 hours):
  /// making one sets up the trust store, and a context keeps the CAs its connections' chains
  /// looked up (from the system's directory or bundle file), so that a reconnect finds them
  /// without reading a file. A CA file changed on
  /// disk is read again once its context has expired. An `SSL` object holds its own reference to
  /// its context, so an evicted context lives on as long as its connections do.
  final class OpenSSLContextCache: Sendable {
    /// What a context is made from.
    struct Key: Hashable, Sendable {
      var caCertificateFile: String?
      var trust: SystemTrust

      init(caCertificateFile: String?, trust: SystemTrust) {
        self.caCertificateFile = caCertificateFile
        self.trust = trust
      }
    }

    /// The process's cache: a day's lifetime, a few trust settings (a ticker uses one).
    static let shared = OpenSSLContextCache(lifetime: .seconds(86_400), capacity: 4, now: { .now })

    private struct Entry {
      let context: OpaquePointer
      let made: ContinuousClock.Instant
      var used: UInt64
    }
    /// The contexts are OpenSSL's: each is configured before it is cached.
    // invariant: a cached SSL_CTX is used only under this lock (by `body`, e.g. SSL_new) or freed here.
    private struct State: @unchecked Sendable {
      var entries: [Key: Entry] = [:]
      var uses: UInt64 = 0
    }
    private let state = RankedMutex(State(), rank: .tlsContexts)
    private let lifetime: Duration
    private let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant

    /// `now` is injected so tests can move time on.
    init(lifetime: Duration, capacity: Int, now: @escaping @Sendable () -> ContinuousClock.Instant) {
      self.lifetime = lifetime
      self.capacity = Swift.max(1, capacity)
      self.now = now
    }

    /// Calls `body` with the context for `key`, made by `make` (which returns a new reference the
    /// cache then owns) when there is none younger than `lifetime`. `body` runs under the cache's
    /// lock, so the context cannot be freed under it: it should only take what it needs (e.g.
    /// `SSL_new`, which keeps its own reference). A failed `make` caches nothing.
    func withContext<R>(
      for key: Key, make: () throws(TransportError) -> OpaquePointer,
      _ body: (OpaquePointer) throws(TransportError) -> R
    ) throws(TransportError) -> R {
      let time = now()
      return try state.withLock { state throws(TransportError) -> R in
        state.uses += 1
        if let entry = state.entries[key], entry.made.duration(to: time) < lifetime {
          state.entries[key]?.used = state.uses
          return try body(entry.context)
        }
        let context = try make()
        if let old = state.entries.removeValue(forKey: key) { SSL_CTX_free(old.context) }
        if state.entries.count >= capacity,
          let oldest = state.entries.min(by: { $0.value.used < $1.value.used })
        {
          SSL_CTX_free(oldest.value.context)
          state.entries[oldest.key] = nil
        }
        state.entries[key] = Entry(context: context, made: time, used: state.uses)
        return try body(context)
      }
    }

    /// How many contexts are kept (for tests).
    var count: Int { state.withLock { $0.entries.count } }
  }
#endif

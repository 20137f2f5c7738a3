extension ServeHub {
  /// How `ServeHub` serves: where, to whom, and within which limits.
  public struct Options: Sendable {
    /// The address to listen on (a literal IPv4 or IPv6 address, or `localhost`).
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// When set, clients must pass it as `?token=`.
    public var token: String?
    /// Clients beyond this many are refused at the upgrade with 503.
    public var maximumClients: Int
    /// Symbols one client may follow; one more: an error and close 1008.
    public var symbolsPerClient: Int
    /// The largest message a client may send, in bytes; bigger: an error and close 1009.
    public var maximumMessageSize: Int
    /// Messages (and bytes) a client's queue holds before the client is dropped.
    public var queueMessages: Int
    public var queueBytes: Int
    /// `{"type":"ping"}` to every client this often.
    public var pingInterval: Duration
    /// Symbols the upstream follows from the start, whatever the clients do (canonical).
    public var pinned: [String]
    /// Seconds a closed client has to answer the close before it is dropped.
    public var closeGrace: Double
    /// Requests (subscribe, unsubscribe, ping) a client may make at once, and per second after
    /// that; beyond: an error and close 1008.
    public var requestBurst = 100
    public var requestsPerSecond = 10.0
    /// The kernel's send buffer per client, in bytes (Linux doubles it).
    public var socketSendBuffer: Int32 = 64 << 10

    public init(
      host: String = "127.0.0.1", port: Int = ServeHub.defaultPort, token: String? = nil,
      maximumClients: Int = 256, symbolsPerClient: Int = 50, maximumMessageSize: Int = 4096,
      queueMessages: Int = 1024, queueBytes: Int = 1 << 20, pingInterval: Duration = .seconds(30),
      pinned: [String] = [], closeGrace: Double = 2
    ) {
      self.host = host
      self.port = port
      self.token = token
      self.maximumClients = maximumClients
      self.symbolsPerClient = symbolsPerClient
      self.maximumMessageSize = maximumMessageSize
      self.queueMessages = queueMessages
      self.queueBytes = queueBytes
      self.pingInterval = pingInterval
      self.pinned = pinned
      self.closeGrace = closeGrace
    }
  }
}

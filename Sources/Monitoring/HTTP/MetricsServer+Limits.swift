extension MetricsServer {
  /// What one client, or many, may cost the endpoint (see docs/metrics.md).
  public struct Limits: Sendable, Equatable {
    /// The request head's bytes at most, request line included: past them the answer is 414 (no
    /// line end yet) or 431, and nothing more is read. At least 64.
    public var maximumHeadSize: Int
    /// The whole head must have come within this much of the accept, however it trickles in.
    public var headTimeout: Duration
    /// The whole response must be written within this much of its start.
    public var writeTimeout: Duration
    /// Connections held at once. A new one beyond them closes the oldest connection still waiting
    /// for its head; when every one is writing its response instead, the new one is answered 503
    /// and closed. At least 1.
    public var maximumConnections: Int

    public init(
      maximumHeadSize: Int = 8192, headTimeout: Duration = .seconds(10),
      writeTimeout: Duration = .seconds(10),
      maximumConnections: Int = 64
    ) {
      self.maximumHeadSize = max(64, maximumHeadSize)
      self.headTimeout = headTimeout
      self.writeTimeout = writeTimeout
      self.maximumConnections = max(1, maximumConnections)
    }
  }

  /// What the endpoint has done so far: for tests, and for a metric of its own if wanted.
  public struct Statistics: Sendable, Equatable {
    /// Connections taken from the listening socket (those refused included).
    public var accepted = 0
    /// Responses begun, any status (the 503s of refused connections not included).
    public var responses = 0
    /// Connections still waiting for their head, closed to make room for a newer one.
    public var evicted = 0
    /// New connections answered 503 and closed: every slot was writing a response.
    public var refused = 0
    /// Connections closed because their head had not come in time.
    public var headTimeouts = 0
    /// Connections closed because their response was not out in time.
    public var writeTimeouts = 0
    /// Connections held now, and the most held at once.
    public var open = 0
    public var mostOpen = 0
    /// Connections writing their response now.
    public var writing = 0
    /// The most bytes read from any one connection.
    public var mostReadFromOne = 0

    public init() {}
  }
}

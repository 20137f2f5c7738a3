/// What the metrics endpoint serves. Both closures run on the server's event loop thread, once a
/// request: they should take a snapshot and return, never wait.
public struct MetricsRoutes: Sendable {
  /// `GET /metrics`: the exposition (Prometheus text format 0.0.4).
  public var metrics: @Sendable () -> String
  /// `GET /healthz`: healthy (200 `ok`), or not (503, one line a reason).
  public var health: @Sendable () -> (healthy: Bool, reasons: [String])

  public init(
    metrics: @escaping @Sendable () -> String,
    health: @escaping @Sendable () -> (healthy: Bool, reasons: [String])
  ) {
    self.metrics = metrics
    self.health = health
  }
}

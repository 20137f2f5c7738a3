import Dispatch
import Synchronization
import Transport

/// The HTTP/1.1 endpoint `--metrics HOST:PORT` serves: `GET /metrics` (the Prometheus text
/// exposition the routes give) and `GET /healthz` (200 `ok`, or 503 with a line a reason), `HEAD`
/// of both; with a token, only to requests that carry `Authorization: Bearer TOKEN`.
///
/// Every connection lives on one `EventLoop` thread of its own, each within `Limits`: a bounded
/// head read within a deadline, a response written within another, a bounded number held at
/// once. A slow or hostile client costs a slot until its deadline, never a thread, and never the
/// feed's: the routes are asked for a snapshot and nothing here waits for the feed.
public final class MetricsServer: Sendable {
  public let limits: Limits
  private let listener: TCPListener
  private let loop: EventLoop<MetricsServerLoop.Command>
  private let responder: MetricsResponder
  private let record = Record()
  private let phase = Mutex(Phase.made)
  private let ended = DispatchSemaphore(value: 0)

  private enum Phase {
    case made, started, stopped
  }

  /// Binds the listening socket (`localhost` is 127.0.0.1; port 0: any free port); a port in use
  /// throws here. `token`: what requests must carry as `Authorization: Bearer`; nil for none.
  public init(
    host: String = "127.0.0.1", port: Int = 0, token: String? = nil, limits: Limits = Limits(),
    routes: MetricsRoutes
  ) throws(TransportError) {
    self.limits = limits
    responder = MetricsResponder(token: token, routes: routes)
    listener = try TCPListener(host: host == "localhost" ? "127.0.0.1" : host, port: port, backlog: 128)
    do {
      loop = try EventLoop()
    } catch {
      listener.close()
      throw error
    }
  }

  /// The bound port.
  public var port: Int { listener.port }

  /// What it has done so far.
  public var statistics: Statistics { record.state.withLock { $0 } }

  /// Starts serving, on a thread of its own. Once only; not after `stop`.
  public func start() {
    let starting = phase.withLock { phase -> Bool in
      guard phase == .made else { return false }
      phase = .started
      return true
    }
    guard starting else { return }
    let (listener, limits, responder, record, ended) = (listener, limits, responder, record, ended)
    loop.run(
      { MetricsServerLoop(listener: listener, limits: limits, responder: responder, statistics: record) },
      done: { ended.signal() })
  }

  /// Stops listening and closes every connection; returns once they are closed (or after a few
  /// seconds at most). Idempotent.
  public func stop() {
    let was = phase.withLock { phase -> Phase in
      defer { phase = .stopped }
      return phase
    }
    switch was {
    case .made: listener.close()
    case .started:
      loop.post(.stop)
      _ = ended.wait(timeout: .now() + 5)
    case .stopped: return
    }
  }

  deinit { stop() }

  /// The statistics, shared by the server and its loop.
  final class Record: Sendable {
    let state = Mutex(Statistics())

    func update(_ change: (inout Statistics) -> Void) { state.withLock { change(&$0) } }
  }
}

import Dispatch
import Recording
import Synchronization
import Transport
import WebSocketServer
import WebSocketWire

/// A small real WebSocket server on loopback that replays a recorded session as a venue would.
///
/// Used by `ticker --demo`, the end-to-end tests and the benchmarks. Each accepted connection
/// gets the script's handshake answer (101, or e.g. 401 from a `finnhub-unauthorized` script)
/// and then the script's server messages, at the recorded pace times `timeScale`, through the
/// venue `Options.emulation` names: the replay starts at the first subscription, messages are
/// filtered to what is subscribed and written in the venue's wire format, and the venue's
/// rules are enforced (see `FinnhubEmulator`, `UpbitEmulator`, `BinanceEmulator`,
/// `CoinbaseEmulator`). `Record` keeps what clients sent and what the venue made of it.
public final class FeedServer: Sendable {
  public let script: SessionScript
  public let options: Options
  private let acceptor: ConnectionAcceptor
  private let state = Mutex(State())
  /// The instants `upgrades` counts from.
  private let started = ContinuousClock.now

  private struct State: Sendable {
    var record = Record()
    var connections: [ObjectIdentifier: ServerConnection] = [:]
    var stopped = false
    /// Recent upgrade requests, for a venue that limits new connections (OKX).
    var upgrades: RateWindow?
  }

  /// Binds the listening socket (port 0 picks a free port); call `start()` to accept.
  public init(script: SessionScript, options: Options = Options()) throws(TransportError) {
    self.script = script
    self.options = options
    self.acceptor = ConnectionAcceptor(listener: try TCPListener(host: options.host, port: options.port))
  }

  /// The bound port.
  public var port: Int { acceptor.listener.port }

  /// The URL clients connect to: the venue's own path (`/websocket/v1` for Upbit, `/stream`,
  /// the combined-stream endpoint, for Binance; `/` otherwise).
  public var url: WebSocketURL {
    WebSocketURL(isSecure: false, host: options.host, port: port, target: options.emulation.path)
  }

  public var record: Record { state.withLock { $0.record } }

  /// Accepts connections on a background thread until `stop()`, each served on a thread of its
  /// own (the shared `ConnectionAcceptor`).
  public func start() {
    acceptor.start(label: "FeedServer") { [self] stream, index in
      let connection = ServerConnection(
        stream: stream, server: self, plan: plan(forConnection: index), index: index)
      let accepted = state.withLock { state -> Bool in
        if state.stopped { return false }
        state.connections[ObjectIdentifier(connection)] = connection
        return true
      }
      guard accepted else {
        stream.close()
        return
      }
      connection.run()
      _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }
  }

  /// Stops accepting and drops every open connection (without a close frame).
  public func stop() {
    let open = state.withLock { state in
      state.stopped = true
      return Array(state.connections.values)
    }
    acceptor.stop()
    open.forEach { $0.abort() }
  }

  /// Drops every open connection (no close frame) and keeps listening: a client sees 1006 and
  /// reconnects.
  public func dropConnections() {
    let open = state.withLock { Array($0.connections.values) }
    open.forEach { $0.abort() }
  }

  /// The plan for the `index`th accepted connection (0-based).
  func plan(forConnection index: Int) -> ConnectionPlan {
    guard let last = options.plans.last else { return ConnectionPlan(ending: options.ending) }
    return index < options.plans.count ? options.plans[index] : last
  }

  /// Whether one more upgrade request is within the venue's limit on new connections (always,
  /// for venues that set none). Every request counts, refused ones too, as a sliding window does.
  func admitsUpgrade() -> Bool {
    guard let limit = options.emulation.venue?.connectionLimit else { return true }
    let now = ContinuousClock.now - started
    return state.withLock { state in
      var window = state.upgrades ?? RateWindow(limit: limit.count, window: limit.window)
      let admitted = window.admit(at: now)
      state.upgrades = window
      return admitted
    }
  }

  func update(_ body: (inout Record) -> Void) {
    state.withLock { body(&$0.record) }
  }
}

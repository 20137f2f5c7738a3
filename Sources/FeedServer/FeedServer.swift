import Dispatch
import Synchronization
import WebSocketClient

/// A small real WebSocket server on loopback that replays a recorded session.
///
/// Used by `ticker --demo`, the end-to-end tests and the benchmarks. Each accepted connection
/// gets the script's handshake answer (101, or e.g. 401 from a `finnhub-unauthorized` script)
/// and then the script's server messages, at the recorded pace times `timeScale`. In Finnhub
/// emulation the replay starts at the first subscribe, trades are filtered to the subscribed
/// symbols, and subscribing to a symbol the script never trades is answered with Finnhub's
/// `Invalid symbol` error.
public final class FeedServer: Sendable {
  public struct Options: Sendable {
    public enum Emulation: Sendable, Equatable {
      /// Subscribe/unsubscribe handling and per-symbol filtering as Finnhub does.
      case finnhub
      /// Send the script's server messages as they are, ignoring what the client says.
      case verbatim
    }
    public typealias Ending = ConnectionPlan.Ending

    public var host: String
    public var port: Int
    /// Factor applied to every `after_ms` (0 = as fast as possible).
    public var timeScale: Double
    /// Upper bound for one step's delay, in seconds, after scaling.
    public var maximumDelay: Double?
    public var emulation: Emulation
    public var ending: Ending
    /// `Retry-After` seconds to send with a non-101 handshake answer.
    public var retryAfter: Int?
    /// Finnhub emulation: the replay starts once this many subscribe messages (valid or not)
    /// have arrived, so a client that subscribes to several symbols gets all of their trades
    /// however fast the replay runs.
    public var awaitSubscriptions: Int
    /// Per-connection plans (the nth connection gets the nth, the last repeats); empty = every
    /// connection gets the script's handshake, the script, and `ending`.
    public var plans: [ConnectionPlan]
    /// `.blast` endings mix `BlastFrames.hostile` into every batch of 1000 messages (soak runs).
    public var hostileBlast = false

    public init(
      host: String = "127.0.0.1", port: Int = 0, timeScale: Double = 1, maximumDelay: Double? = nil,
      emulation: Emulation = .finnhub,
      ending: Ending = .close(CloseStatus(code: .normalClosure, reason: "replay finished")),
      retryAfter: Int? = nil, awaitSubscriptions: Int = 1, plans: [ConnectionPlan] = []
    ) {
      self.awaitSubscriptions = awaitSubscriptions
      self.plans = plans
      self.host = host
      self.port = port
      self.timeScale = timeScale
      self.maximumDelay = maximumDelay
      self.emulation = emulation
      self.ending = ending
      self.retryAfter = retryAfter
    }
  }

  /// What the server has seen, for tests.
  public struct Record: Sendable, Equatable {
    /// Upgrade requests received (including refused ones).
    public var connections = 0
    /// Request targets (path and query) in arrival order.
    public var targets: [String] = []
    /// Text messages clients sent, in arrival order.
    public var clientMessages: [String] = []
    /// Close statuses clients sent.
    public var clientCloses: [CloseStatus?] = []
    /// Connections whose script has been sent to the end (before the ending: close, hold, …).
    public var scriptsCompleted = 0
    /// Messages sent by `.blast` endings.
    public var blasted = 0
  }

  public let script: SessionScript
  public let options: Options
  private let listener: TCPListener
  private let state = Mutex(State())

  private struct State: Sendable {
    var record = Record()
    var connections: [ObjectIdentifier: ServerConnection] = [:]
    var accepted = 0
    var stopped = false
  }

  /// Binds the listening socket (port 0 picks a free port); call `start()` to accept.
  public init(script: SessionScript, options: Options = Options()) throws(TransportError) {
    self.script = script
    self.options = options
    self.listener = try TCPListener(host: options.host, port: options.port)
  }

  /// The bound port.
  public var port: Int { listener.port }

  /// The URL clients connect to.
  public var url: WebSocketURL {
    WebSocketURL(isSecure: false, host: options.host, port: port, target: "/")
  }

  public var record: Record { state.withLock { $0.record } }

  /// Accepts connections on a background thread until `stop()`.
  public func start() {
    DispatchQueue(label: "FeedServer.accept").async { [self] in
      while true {
        let stream: TCPStream
        do {
          stream = try listener.accept(timeout: nil)
        } catch {
          return  // stopped (listener closed) or the listener failed
        }
        let index = state.withLock { state -> Int in
          defer { state.accepted += 1 }
          return state.accepted
        }
        let connection = ServerConnection(stream: stream, server: self, plan: plan(forConnection: index))
        let accepted = state.withLock { state -> Bool in
          if state.stopped { return false }
          state.connections[ObjectIdentifier(connection)] = connection
          return true
        }
        guard accepted else {
          stream.close()
          return
        }
        DispatchQueue(label: "FeedServer.connection").async {
          connection.run()
          _ = self.state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
        }
      }
    }
  }

  /// Stops accepting and drops every open connection (without a close frame).
  public func stop() {
    let open = state.withLock { state in
      state.stopped = true
      return Array(state.connections.values)
    }
    listener.close()
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

  func update(_ body: (inout Record) -> Void) {
    state.withLock { body(&$0.record) }
  }
}

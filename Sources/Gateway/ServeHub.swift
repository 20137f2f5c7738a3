import Dispatch
import FeedRuntime
import Synchronization
import Transport
import Venues
import WebSocketServer
import WebSocketWire

/// `ticker serve`: a Finnhub-compatible WebSocket server in front of one upstream `QuoteSource`.
/// A source of several venues (`QuoteSource.venues`) takes qualified symbols
/// (`coinbase/BTC-USD`): their trades name them so, and an unqualified symbol is the first
/// venue's, as with one.
///
/// Three parts: who is let in (`ServeAdmission`, with the client limit here), the fan-out
/// (`ServeFanout`: every batch of quotes from the upstream's bus cut per client into Finnhub trade
/// messages of just its symbols, queued in the client's bounded `ClientOutbox`; a client whose
/// queue is full is dropped with close 1008 and never holds up the upstream or the others), and
/// the connections (`ServeLoop`: every socket on one event loop thread). Clients subscribe and
/// unsubscribe with Finnhub's messages; the upstream follows the union of their symbols
/// (`ServeSubscriptions`).
public final class ServeHub: Sendable {
  /// The port `ticker serve` listens on by default.
  public static let defaultPort = 8717

  public let options: Options
  private let source: any QuoteSource
  private let provider: any Provider
  /// The source's venues, by `Quote.venue`; the first is `provider`.
  private let venues: [any Provider]
  private let listener: TCPListener
  private let loop: EventLoop<ServeLoop.Command>
  private let logger: @Sendable (Event) -> Void
  private let state: Mutex<State>
  private let distributor = Mutex<Task<Void, Never>?>(nil)
  private let pinger = Mutex<Task<Void, Never>?>(nil)
  /// Frames queued to clients, and clients dropped for being too slow (`--metrics`).
  private let framesQueued = Atomic<Int>(0)
  private let slowDrops = Atomic<Int>(0)

  private struct State: Sendable {
    var clients: [Int: ServeClient] = [:]
    /// Upgrades admitted but not yet registered (so the limit counts them).
    var reserved = 0
    var subscriptions: ServeSubscriptions
    /// Each client's symbols as quotes name them (venue and server spelling), and the name its
    /// trades give each (the venue-qualified name when the client asked so).
    var serverSymbols: [Int: ServeFanout.Symbols] = [:]
    var stopped = false
  }

  /// Binds the listening socket (a port in use throws here).
  public init(source: any QuoteSource, options: Options, log: @escaping @Sendable (Event) -> Void)
    throws(TransportError)
  {
    self.source = source
    self.provider = source.provider
    self.venues = source.venues
    self.options = options
    self.logger = log
    self.state = Mutex(
      State(
        subscriptions: ServeSubscriptions(pinned: options.pinned, perClientLimit: options.symbolsPerClient)))
    self.listener = try TCPListener(
      host: options.host == "localhost" ? "127.0.0.1" : options.host, port: options.port, backlog: 512)
    self.loop = try EventLoop()
  }

  /// The bound port.
  public var port: Int { listener.port }

  /// Clients connected, frames queued to them, and clients dropped for being too slow, so far.
  public var counts: (clients: Int, frames: Int, slowDrops: Int) {
    (clientCount, framesQueued.load(ordering: .relaxed), slowDrops.load(ordering: .relaxed))
  }

  /// The clients connected now.
  public var clientCount: Int { state.withLock { $0.clients.count } }

  /// Starts distributing the upstream's quotes and accepting clients.
  public func start() {
    let subscription = source.bus.subscribe(capacity: 64, quoteLimit: 1 << 16, overflow: .wait)
    distributor.withLock {
      $0 = Task { [self] in
        while let batches = try? await subscription.queue.nextBatch() {
          for quotes in batches { distribute(quotes) }
        }
      }
    }
    let interval = options.pingInterval
    pinger.withLock {
      $0 = Task { [self] in
        while (try? await Task.sleep(for: interval)) != nil { broadcastPing() }
      }
    }
    let listener = self.listener
    loop.run { [self] in ServeLoop(hub: self, listener: listener) }
  }

  /// Stops accepting and closes every client with `status` (1001 when the server goes away);
  /// waits at most `seconds` for their close frames to go out.
  public func shutdown(_ status: CloseStatus, waiting seconds: Double = 1) {
    loop.post(.stop)
    pinger.withLock { $0?.cancel() }
    let clients = state.withLock { state -> [ServeClient] in
      state.stopped = true
      return Array(state.clients.values)
    }
    for client in clients { client.close(status, why: "the server is stopping") }
    let deadline = ContinuousClock.now + .seconds(seconds)
    for client in clients {
      _ = client.waitForWriter(seconds: max(0, (deadline - ContinuousClock.now).seconds))
    }
  }

  /// Waits until the upstream's quotes are all handed out (after its run ended).
  public func drained() async {
    let task = distributor.withLock { $0 }
    await task?.value
  }

  // MARK: Upstream

  /// What the upstream reported: a symbol the venue refused is taken from the clients that
  /// asked for it (they are told, in Finnhub's words), and leaves the upstream subscription.
  /// - Parameter venue: whose report it is (an index into the source's venues).
  public func upstream(_ report: FeedReport, venue: Int = 0) {
    switch report {
    case .venueError(let error):
      guard let refused = error.symbol else { return }
      refuse(VenueSymbol(venue: UInt8(venue), server: refused))
    case .changeRefused(_, let symbols):
      for symbol in symbols {
        refuse(VenueSymbol(venue: UInt8(venue), server: venues[venue].serverSymbol(for: symbol)))
      }
    default:
      break
    }
  }

  /// Venue `index` could not be opened: every client following one of its symbols is told so
  /// (`Invalid symbol X`), as for a symbol the venue refused.
  public func venueUnavailable(_ index: Int) {
    let symbols = state.withLock { state in
      Set(state.serverSymbols.values.flatMap(\.keys).filter { $0.venue == UInt8(index) })
    }
    for symbol in symbols.sorted(by: { $0.server < $1.server }) { refuse(symbol) }
  }

  private func refuse(_ refused: VenueSymbol) {
    let serverSymbol = refused.server
    let told = state.withLock { state -> [(ServeClient, String)] in
      var told: [(ServeClient, String)] = []
      var gone: [String] = []
      for (id, client) in state.clients.sorted(by: { $0.key < $1.key }) {
        for symbol in state.subscriptions.symbols(of: id) where venueSymbol(ofKey: symbol) == refused {
          if state.subscriptions.remove(symbol, for: id) { gone.append(symbol) }
          state.serverSymbols[id]?[refused] = nil
          told.append((client, symbol))
        }
      }
      if !gone.isEmpty { source.unsubscribe(gone) }
      return told
    }
    for (client, symbol) in told {
      client.send(FinnhubWire.error("Invalid symbol \(symbol)"))
    }
    if !told.isEmpty { log(.venueRefused(symbol: serverSymbol, clients: told.map(\.0.id))) }
  }

  // MARK: Distribution

  /// Hands one batch out: each client gets its trades, in order; a client whose queue is full
  /// is dropped.
  private func distribute(_ quotes: [Quote]) {
    let clients = state.withLock { state in
      state.clients.compactMap { id, client in state.serverSymbols[id].map { (client, $0) } }
    }
    guard !clients.isEmpty else { return }
    var fanout = ServeFanout(quotes)
    for (client, symbols) in clients {
      for frame in fanout.frames(for: symbols) { deliver(frame, to: client) }
    }
  }

  private func broadcastPing() {
    let clients = state.withLock { Array($0.clients.values) }
    let frame = FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(FinnhubWire.ping.utf8)))
    for client in clients { deliver(frame, to: client) }
  }

  private func deliver(_ frame: [UInt8], to client: ServeClient) {
    let offer = client.send(frame: frame)
    if offer == .queued { framesQueued.add(1, ordering: .relaxed) }
    if offer == .full {
      slowDrops.add(1, ordering: .relaxed)
      client.close(
        CloseStatus(code: .policyViolation, reason: "too slow: send queue full"),
        why: "too slow (\(options.queueMessages)-message queue full)", discarding: true)
    }
  }

  // MARK: Admission (for the loop)

  /// Takes a slot for a new connection; false when the server is full or stopping.
  func reserveSlot() -> Bool {
    state.withLock { state in
      guard !state.stopped, state.clients.count + state.reserved < options.maximumClients else {
        return false
      }
      state.reserved += 1
      return true
    }
  }

  /// A connection that took a slot was not upgraded: the slot is free again (and the refusal
  /// logged, with its status).
  func releaseSlot(status: Int?, why: String) {
    state.withLock { $0.reserved -= 1 }
    if let status { log(.refused(status: status, why: why)) }
  }

  func makeClient(id: Int) -> ServeClient {
    ServeClient(
      id: id, outbox: ClientOutbox(capacity: options.queueMessages, byteLimit: options.queueBytes),
      notify: { [loop] in loop.post($0) })
  }

  /// An upgraded client takes its slot.
  func register(_ client: ServeClient) {
    let open = state.withLock { state -> Int in
      state.reserved -= 1
      state.clients[client.id] = client
      state.serverSymbols[client.id] = [:]
      return state.clients.count
    }
    log(.connected(client: client.id, open: open))
  }

  /// A client left: the upstream drops what only it followed. The clients still connected.
  func unregister(_ id: Int) -> Int {
    let (gone, left) = state.withLock { state -> ([String], Int) in
      state.clients[id] = nil
      state.serverSymbols[id] = nil
      let gone = state.subscriptions.removeClient(id)
      if !gone.isEmpty { source.unsubscribe(gone) }
      return (gone, state.clients.count)
    }
    if !gone.isEmpty { log(.upstream(subscribed: [], unsubscribed: gone)) }
    return left
  }

  func log(_ event: Event) { logger(event) }

  // MARK: Clients (from the loop)

  /// A client over its request budget: told, and closed.
  func tooManyRequests(_ client: ServeClient) {
    refuseClient(
      client,
      message: "Too many requests (at most \(options.requestBurst) at once, then "
        + "\(Int(options.requestsPerSecond)) a second)", code: .policyViolation)
  }

  /// A client that broke the protocol or a limit: told, and closed with the matching code.
  func protocolError(_ error: FrameError, from client: ServeClient) {
    let message: String
    switch error {
    case .messageTooLarge: message = "Message too large (at most \(options.maximumMessageSize) bytes)"
    default: message = "Protocol error: \(error)"
    }
    refuseClient(client, message: message, code: error.closeCode)
  }

  /// One event from a client; false once the client must go.
  func handle(_ event: MessageAssembler.Event, from client: ServeClient) -> Bool {
    switch event {
    case .message(.text(let text)):
      switch ServeRequest.parse(text) {
      case .failure(let failure):
        refuseClient(client, message: failure.description, code: .policyViolation)
        return false
      case .success(let request):
        log(.request(client: client.id, request))
        return apply(request, from: client)
      }
    case .message(.binary):
      refuseClient(
        client, message: "Binary messages are not supported: send JSON text", code: .unsupportedData)
      return false
    case .ping, .pong, .close:
      return true
    }
  }

  private func apply(_ request: ServeRequest, from client: ServeClient) -> Bool {
    let symbol: String
    switch request {
    case .ping: return true
    case .subscribe(let s), .unsubscribe(let s): symbol = s
    }
    guard let (canonical, server, name) = resolve(symbol) else {
      tell(client, "Invalid symbol \(symbol)")
      return true
    }
    let result = state.withLock { state -> ServeSubscriptions.AddResult? in
      if case .subscribe = request {
        let result = state.subscriptions.add(canonical, for: client.id)
        if case .added(let upstream) = result {
          if state.serverSymbols[client.id]?[server] == nil { state.serverSymbols[client.id]?[server] = name }
          if upstream { source.subscribe([canonical]) }
        }
        return result
      }
      if state.subscriptions.remove(canonical, for: client.id) { source.unsubscribe([canonical]) }
      if !state.subscriptions.symbols(of: client.id).contains(where: { venueSymbol(ofKey: $0) == server }) {
        state.serverSymbols[client.id]?[server] = nil
      }
      return nil
    }
    switch result {
    case .tooMany?:
      refuseClient(
        client, message: "Subscribing to too many symbols (at most \(options.symbolsPerClient))",
        code: .policyViolation)
      return false
    case .added(upstream: true)?: log(.upstream(subscribed: [canonical], unsubscribed: []))
    default: break
    }
    return true
  }

  /// What a client's symbol means: its key among the subscriptions (canonical for its venue;
  /// `VENUE/SYMBOL` for any venue but the first), what quotes of it carry, and the name its
  /// trades give it (qualified when the client qualified it). Nil: no venue of the source's
  /// takes it (a venue not served, or a symbol the venue's rules refuse).
  private func resolve(_ text: String) -> (key: String, symbol: VenueSymbol, name: String)? {
    let (named, bare) = ProviderCatalog.qualified(text)
    var index = 0
    var symbol = text
    if let named {
      guard let found = venues.firstIndex(where: { $0.name == named.name }) else { return nil }
      (index, symbol) = (found, bare)
    }
    let venue = venues[index]
    guard case .success(let canonical) = venue.canonicalSymbol(symbol) else { return nil }
    let server = venue.serverSymbol(for: canonical)
    return (
      index == 0 ? canonical : venue.name + "/" + canonical, VenueSymbol(venue: UInt8(index), server: server),
      named == nil ? server : venue.name + "/" + server
    )
  }

  /// What quotes of a subscription key carry.
  private func venueSymbol(ofKey key: String) -> VenueSymbol {
    let (named, bare) = ProviderCatalog.qualified(key)
    if let named, let index = venues.firstIndex(where: { $0.name == named.name }), index > 0 {
      return VenueSymbol(venue: UInt8(index), server: venues[index].serverSymbol(for: bare))
    }
    return VenueSymbol(venue: 0, server: provider.serverSymbol(for: key))
  }

  private func tell(_ client: ServeClient, _ message: String) {
    log(.clientError(client: client.id, message))
    client.send(FinnhubWire.error(message))
  }

  /// An error in Finnhub's shape, then a close with `code`.
  private func refuseClient(_ client: ServeClient, message: String, code: CloseCode) {
    tell(client, message)
    client.close(CloseStatus(code: code, reason: String(message.prefix(100))), why: message)
  }
}

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
/// Clients subscribe and unsubscribe with Finnhub's messages; the upstream follows the union of
/// their symbols (`ServeSubscriptions`). Every batch of quotes from the upstream's bus is cut per
/// client into one Finnhub trade message of just its symbols, queued in the client's own bounded
/// `ClientOutbox` and written by the client's own thread: a client that does not keep up is
/// dropped (close 1008) when its queue is full, and never holds up the upstream or the others.
/// Each client also has a reader thread (`ClientFrameReader`, 4 KiB messages at most).
public final class ServeHub: Sendable {
  /// The port `ticker serve` listens on by default.
  public static let defaultPort = 8717

  public let options: Options
  private let source: any QuoteSource
  private let provider: any Provider
  /// The source's venues, by `Quote.venue`; the first is `provider`.
  private let venues: [any Provider]
  private let acceptor: ConnectionAcceptor
  private let log: @Sendable (Event) -> Void
  private let state: Mutex<State>
  private let distributor = Mutex<Task<Void, Never>?>(nil)
  private let pinger = Mutex<Task<Void, Never>?>(nil)

  private struct State: Sendable {
    var clients: [Int: ServeClient] = [:]
    /// Upgrades admitted but not yet registered (so the limit counts them).
    var reserved = 0
    var subscriptions: ServeSubscriptions
    /// Each client's symbols as quotes name them (venue and server spelling), and the name its
    /// trades give each (the venue-qualified name when the client asked so).
    var serverSymbols: [Int: [VenueSymbol: String]] = [:]
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
    self.log = log
    self.state = Mutex(
      State(
        subscriptions: ServeSubscriptions(pinned: options.pinned, perClientLimit: options.symbolsPerClient)))
    self.acceptor = ConnectionAcceptor(
      listener: try TCPListener(
        host: options.host == "localhost" ? "127.0.0.1" : options.host, port: options.port))
  }

  /// The bound port.
  public var port: Int { acceptor.listener.port }

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
    acceptor.start(label: "serve") { [self] stream, index in serve(stream, id: index + 1) }
  }

  /// Stops accepting and closes every client with `status` (1001 when the server goes away);
  /// waits at most `seconds` for their close frames to go out.
  public func shutdown(_ status: CloseStatus, waiting seconds: Double = 1) {
    acceptor.stop()
    pinger.withLock { $0?.cancel() }
    let clients = state.withLock { state -> [ServeClient] in
      state.stopped = true
      return Array(state.clients.values)
    }
    for client in clients { client.close(status, why: "the server is stopping") }
    let deadline = ContinuousClock.now + .seconds(seconds)
    for client in clients {
      let left = deadline - ContinuousClock.now
      _ = client.waitForWriter(
        seconds: max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18))
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
      _ = client.send(FinnhubWire.error("Invalid symbol \(symbol)"))
    }
    if !told.isEmpty { log(.venueRefused(symbol: serverSymbol, clients: told.map(\.0.id))) }
  }

  // MARK: Distribution

  /// Hands one batch out: each client gets one trade message with the quotes of its symbols, in
  /// order; a client whose queue is full is dropped.
  private func distribute(_ quotes: [Quote]) {
    let clients = state.withLock { state in
      state.clients.compactMap { id, client in state.serverSymbols[id].map { (client, $0) } }
    }
    guard !clients.isEmpty else { return }
    var trades: [ArraySlice<UInt8>] = []
    var encoded: [UInt8] = []
    var ranges: [Range<Int>] = []
    for quote in quotes {
      let start = encoded.count
      FinnhubWire.appendTrade(quote, to: &encoded)
      ranges.append(start..<encoded.count)
    }
    var made: [Picked: [[UInt8]]] = [:]
    for (client, symbols) in clients {
      var pick = Picked()
      for index in quotes.indices {
        guard let name = symbols[VenueSymbol(venue: quotes[index].venue, server: quotes[index].symbol)] else {
          continue
        }
        if name != quotes[index].symbol { pick.rename(slot: pick.indices.count, to: name) }
        pick.indices.append(index)
      }
      let picked = pick.indices
      guard !picked.isEmpty else { continue }
      let frames: [[UInt8]]
      if let done = made[pick] {
        frames = done
      } else {
        // A trade a client asked for by its qualified name names it so (`coinbase/BTC-USD`).
        var renamed: [Int: ArraySlice<UInt8>] = [:]
        for (slot, name) in (pick.names ?? []).enumerated() {
          guard let name else { continue }
          var quote = quotes[picked[slot]]
          quote.symbol = name
          var bytes: [UInt8] = []
          FinnhubWire.appendTrade(quote, to: &bytes)
          renamed[slot] = bytes[...]
        }
        func trade(_ slot: Int) -> ArraySlice<UInt8> { renamed[slot] ?? encoded[ranges[picked[slot]]] }
        // A batch can hold thousands of trades; a message holds at most about
        // `messageBytes` of them, as a venue's would (websocat refuses messages over 64 KiB
        // by default, and such a client would lose trades).
        var built: [[UInt8]] = []
        var start = 0
        while start < picked.count {
          var end = start
          var bytes = 0
          while end < picked.count && (end == start || bytes + trade(end).count < Self.messageBytes) {
            bytes += trade(end).count + 1
            end += 1
          }
          trades = (start..<end).map(trade)
          built.append(
            FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: FinnhubWire.tradeMessage(trades))))
          start = end
        }
        frames = built
        made[pick] = frames
      }
      for frame in frames { deliver(frame, to: client) }
    }
  }

  /// The quotes of a batch one client gets, and the names it gives them (nil: as quoted).
  private struct Picked: Hashable {
    var indices: [Int] = []
    /// By slot in `indices`; nil while none is renamed (a client of unqualified symbols).
    var names: [String?]?

    mutating func rename(slot: Int, to name: String) {
      var list = names ?? []
      names = nil  // the only reference left: the appends below do not copy
      list.append(contentsOf: repeatElement(nil, count: max(0, slot - list.count)))
      list.append(name)
      names = list
    }
  }

  /// The most trade bytes one message to a client carries (a larger single trade goes alone).
  static let messageBytes = 16 << 10

  private func broadcastPing() {
    let clients = state.withLock { Array($0.clients.values) }
    let frame = FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(FinnhubWire.ping.utf8)))
    for client in clients { deliver(frame, to: client) }
  }

  private func deliver(_ frame: [UInt8], to client: ServeClient) {
    if client.send(frame: frame) == .full {
      client.close(
        CloseStatus(code: .policyViolation, reason: "too slow: send queue full"),
        why: "too slow (\(options.queueMessages)-message queue full)", discarding: true)
    }
  }

  // MARK: Clients

  /// One accepted connection, on its own thread: the upgrade (token, client limit), then reading
  /// the client's requests until it leaves.
  private func serve(_ stream: TCPStream, id: Int) {
    let writer = ServerFrameWriter(stream: stream, writeTimeout: 5)
    let input = ServerInput(stream: stream)
    // A slot is taken before anything is read, so that connections that never finish their
    // upgrade count against the limit too (each holds a thread for up to 10 s).
    let admitted = state.withLock { state -> Bool in
      guard !state.stopped, state.clients.count + state.reserved < options.maximumClients else {
        return false
      }
      state.reserved += 1
      return true
    }
    guard admitted else {
      // Read the request first (briefly): closing on unread bytes would reset the connection
      // before the client could read the answer.
      _ = ServerUpgrade.readRequest(input: input, writer: writer, timeout: 2)
      ServeUpgradeRefusal.full.send(writer)
      log(.refused(status: 503, why: "\(options.maximumClients) clients already connected"))
      stream.close()
      return
    }
    func release(status: Int?, why: String) {
      state.withLock { $0.reserved -= 1 }
      if let status { log(.refused(status: status, why: why)) }
      stream.close()
    }
    guard let (request, leftover) = ServerUpgrade.readRequest(input: input, writer: writer) else {
      release(status: nil, why: "")
      return
    }
    if let token = options.token,
      !ServeAccess.tokenMatches(ServeAccess.queryValue("token", in: request.target), expected: token)
    {
      ServeUpgradeRefusal.unauthorized.send(writer)
      release(status: 401, why: "wrong or missing token")
      return
    }
    guard ServerUpgrade.accept(request, writer: writer) else {
      release(status: 400, why: "not a WebSocket upgrade")
      return
    }
    // What a client that stops reading can hold in the kernel, besides its queue.
    stream.limitSendBuffer(to: options.socketSendBuffer)
    let client = ServeClient(
      id: id, stream: stream, writer: writer,
      outbox: ClientOutbox(capacity: options.queueMessages, byteLimit: options.queueBytes),
      closeGrace: options.closeGrace)
    let open = state.withLock { state -> Int in
      state.reserved -= 1
      state.clients[id] = client
      state.serverSymbols[id] = [:]
      return state.clients.count
    }
    client.startWriter()
    log(.connected(client: id, open: open))

    var budget = RequestBudget<ContinuousClock.Instant>(
      burst: options.requestBurst, perSecond: options.requestsPerSecond)
    let reader = ClientFrameReader(
      input: input, writer: writer, maximumMessageSize: options.maximumMessageSize)
    // Once the server has closed a client, its further messages are read and dropped until its
    // close frame (or the grace is over): closing on unread bytes would reset the connection
    // before the client could read why.
    let ending = reader.run(initial: leftover, draining: { client.serverEnding != nil }) { event in
      if case .message = event, !budget.spend(at: .now) {
        refuseClient(
          client,
          message: "Too many requests (at most \(options.requestBurst) at once, then "
            + "\(Int(options.requestsPerSecond)) a second)", code: .policyViolation)
        return false
      }
      return handle(event, from: client)
    }
    var status: CloseStatus?
    switch ending {
    case .clientClosed(let closed): status = closed ?? CloseStatus(code: .noStatusReceived)
    case .protocolError(let error):
      let message: String
      switch error {
      case .messageTooLarge: message = "Message too large (at most \(options.maximumMessageSize) bytes)"
      default: message = "Protocol error: \(error)"
      }
      refuseClient(client, message: message, code: error.closeCode)
      // The frames cannot be parsed any more: drop the bytes until the client goes or the
      // grace is over (then the connection is shut down and the read returns).
      while let bytes = input.read(timeout: nil), !bytes.isEmpty {}
    case .stopped, .connectionEnded: break
    }
    let (gone, left) = state.withLock { state -> ([String], Int) in
      state.clients[id] = nil
      state.serverSymbols[id] = nil
      let gone = state.subscriptions.removeClient(id)
      if !gone.isEmpty { source.unsubscribe(gone) }
      return (gone, state.clients.count)
    }
    if !gone.isEmpty { log(.upstream(subscribed: [], unsubscribed: gone)) }
    // A client the server closed gets a moment to answer; one that left is finished at once.
    client.finish(waiting: client.serverEnding == nil ? 0.5 : options.closeGrace)
    let ended = client.serverEnding
    log(.disconnected(client: id, status: ended?.status ?? status, why: ended?.why, open: left))
  }

  /// One event from a client; false once the client must go.
  private func handle(_ event: MessageAssembler.Event, from client: ServeClient) -> Bool {
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
    _ = client.send(FinnhubWire.error(message))
  }

  /// An error in Finnhub's shape, then a close with `code`.
  private func refuseClient(_ client: ServeClient, message: String, code: CloseCode) {
    tell(client, message)
    client.close(CloseStatus(code: code, reason: String(message.prefix(100))), why: message)
  }
}

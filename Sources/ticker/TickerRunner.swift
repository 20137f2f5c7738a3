import PriceFeed
import Synchronization
import WebSocketClient

/// One run of the feed over a self-healing session: connect, subscribe (again after every
/// reconnect), decode, filter, print, and stop cleanly.
struct TickerRunner: Sendable {
  /// How a run ended.
  enum Outcome: Sendable, Equatable {
    case countReached
    case readerGone
    case writeFailed(Int32)
    case signal(Int32)
    /// The server closed the connection with 1000.
    case serverClosed(CloseStatus?)
    case failed(WebSocketError)
    /// `--max-retries` reconnects failed in a row.
    case retriesExhausted(attempts: Int, last: DisconnectReason)
  }

  var provider: any Provider
  var engine: any WebSocketEngine
  var url: WebSocketURL
  var symbols: [String]
  var connectOptions: ConnectOptions
  var sessionConfiguration: SessionConfiguration
  var stage: PriceStage<ContinuousClock.Instant>
  var sink: QuoteSink
  var diagnostics: Diagnostics
  /// How long to wait for the server's close frame when we close.
  var closeTimeout: Duration = .seconds(1)

  func run() async -> Outcome {
    diagnostics.info("connecting to \(url) with the \(engine.name) engine")
    var ids = RequestIDs(prefix: "ticker")
    let subscribe = provider.subscriptionMessages(from: [], to: symbols, ids: &ids)
    let unsubscribe = provider.subscriptionMessages(from: symbols, to: [], ids: &ids)
    let session = WebSocketSession(
      engine: engine, url: url, options: connectOptions, configuration: sessionConfiguration
    ) { connection throws(WebSocketError) in
      for message in subscribe { try await connection.send(message) }
    }
    let stopper = Stopper(
      session: session, beforeClose: unsubscribe, timeout: closeTimeout)
    let driver = PipelineDriver(stage: stage, sink: sink) { stop in
      switch stop {
      case .countReached: stopper.request(.countReached)
      case .readerGone: stopper.request(.readerGone)
      case .writeFailed(let e): stopper.request(.writeFailed(e))
      }
    }
    let signals = SignalWatcher { sig in stopper.request(.signal(sig)) }
    defer { signals.cancel() }
    let warnings = InputWarnings(diagnostics: diagnostics)
    defer { warnings.summary() }
    let filter = SymbolFilter(symbols: symbols.map(provider.serverSymbol(for:)))

    session.start()
    var outcome: SessionOutcome = .stopped
    var lastAttempt = 0
    // Events come in batches (everything the session had ready); the quotes of a batch go
    // through the pipeline together, so a burst costs one hand-over and one write.
    var quotes: [Quote] = []
    while var events = try? await session.events.nextBatch() {
      for index in events.indices {
        switch events[index] {
        case .message(let message):
          // Its quotes are taken out of it: a large message can go before they are printed.
          events[index] = .message(.binary([]))
          if message.byteCount >= LargeMessage.threshold, let large = provider.decodeLarge(message) {
            await decode(large, pending: &quotes, driver: driver, filter: filter, warnings: warnings)
          } else {
            decode(message, into: &quotes, filter: filter, warnings: warnings)
          }
          continue
        case .connected(let attempt):
          if attempt == 0 {
            diagnostics.info("connected; subscribed to \(symbols.joined(separator: ", "))")
          } else {
            diagnostics.note(
              "reconnected (attempt \(attempt)); subscribed again to \(symbols.count) symbol(s)")
          }
        case .disconnected(let reason, let attempt, let retryIn):
          lastAttempt = attempt
          diagnostics.warning(
            "\(Self.describe(reason)); reconnect attempt \(attempt) in \(Self.seconds(retryIn))")
        case .ended(let ended):
          outcome = ended
        }
      }
      if !quotes.isEmpty {
        await driver.receive(quotes)
        quotes.removeAll(keepingCapacity: true)
      }
    }

    // Whatever ended the run, what is pending in the debounce stage is printed first: nothing
    // valid is lost. (After --count or a closed stdout there is nothing more to print.)
    switch outcome {
    case .stopped:
      let requested = stopper.requested ?? .signal(2)
      if case .signal = requested { await driver.flush() }
      return requested
    case .peerClosedNormally(let status):
      await driver.flush()
      return stopper.requested ?? .serverClosed(status)
    case .fatal(let error):
      await driver.flush()
      return .failed(error)
    case .retriesExhausted(let last):
      await driver.flush()
      return .retriesExhausted(attempts: lastAttempt, last: last)
    }
  }

  /// Decodes one message: its quotes for subscribed symbols join `quotes`; everything else is
  /// reported (quotes for other symbols are counted, and named with `--verbose`).
  private func decode(
    _ message: WebSocketMessage, into quotes: inout [Quote], filter: SymbolFilter, warnings: InputWarnings
  ) {
    let start = quotes.count
    defer { retainSubscribed(&quotes, from: start, filter: filter, warnings: warnings) }
    guard let event = provider.decode(message, appendingQuotesTo: &quotes) else { return }
    report(event, into: &quotes, warnings: warnings)
  }

  /// A large message: what came before it goes through the pipeline first, then its quotes one
  /// chunk at a time, so that they never all exist at once.
  private func decode(
    _ large: LargeMessage, pending quotes: inout [Quote], driver: PipelineDriver, filter: SymbolFilter,
    warnings: InputWarnings
  ) async {
    guard case .chunks(var chunks, let dropped, let droppedCount) = large else {
      if case .event(let event) = large { report(event, into: &quotes, warnings: warnings) }
      return
    }
    if droppedCount > 0 {
      warnings.warn(
        "malformed trade entries",
        "dropped malformed entries: \(dropped.joined(separator: "; "))"
          + (droppedCount > dropped.count ? "; and \(droppedCount - dropped.count) more" : ""))
    }
    repeat {
      retainSubscribed(&quotes, from: 0, filter: filter, warnings: warnings)
      if !quotes.isEmpty { await driver.receive(quotes) }
      quotes.removeAll(keepingCapacity: quotes.capacity <= LargeMessage.chunkSize * 2)
    } while chunks.next(into: &quotes)
  }

  /// Drops the quotes of symbols not subscribed from `quotes[start...]`, and counts them.
  private func retainSubscribed(
    _ quotes: inout [Quote], from start: Int, filter: SymbolFilter, warnings: InputWarnings
  ) {
    let (removed, example) = filter.retain(&quotes, from: start)
    if removed > 0, let example {
      warnings.count(
        "messages with trades for symbols not subscribed",
        verbose: "dropped \(removed) trade(s) for symbols not subscribed (such as \"\(example)\")")
    }
  }

  /// What a message other than plain prices meant: partial prices join `quotes`, the rest is
  /// reported.
  private func report(_ event: ProviderEvent, into quotes: inout [Quote], warnings: InputWarnings) {
    switch event {
    case .quotes(let decoded):
      quotes.append(contentsOf: decoded)
    case .partial(let decoded, let dropped):
      warnings.warn(
        "malformed trade entries", "dropped malformed entries: \(dropped.joined(separator: "; "))")
      quotes.append(contentsOf: decoded)
    case .keepalive:
      break
    case .error(let error):
      warnings.warn("server errors", "server error: \(error.message)")
    case .acknowledged, .closingSoon:
      break
    case .ignored(let type):
      warnings.count("ignored messages", verbose: "ignored a message of type \"\(type)\"")
    case .malformed(let why):
      warnings.warn("malformed messages", "malformed message: \(why)")
    }
  }

  /// The reason part of a disconnect line.
  static func describe(_ reason: DisconnectReason) -> String {
    switch reason {
    case .failed(let error): ErrorReport.describe(error).message
    case .peerClosed(let status): "the server closed the connection (\(status))"
    case .pongTimeout(let limit): "no pong within \(seconds(limit)): the connection is dead"
    case .silence(let limit): "no message for \(seconds(limit)): the connection is dead"
    }
  }

  /// "0.6 s", "60 s".
  static func seconds(_ duration: Duration) -> String {
    let millis = Int((duration.seconds * 1000).rounded())
    if millis % 1000 == 0 { return "\(millis / 1000) s" }
    if millis >= 10_000 { return "\(Int((Double(millis) / 1000).rounded())) s" }
    let tenths = (Double(millis) / 100).rounded() / 10
    return "\(tenths) s"
  }
}

/// Ends a run from outside the event loop (signal, --count, stdout gone): unsubscribes, closes
/// with 1000, and remembers why. The first request wins.
final class Stopper: Sendable {
  private let session: WebSocketSession
  private let beforeClose: [WebSocketMessage]
  private let timeout: Duration
  private let reason = Mutex<TickerRunner.Outcome?>(nil)

  init(session: WebSocketSession, beforeClose: [WebSocketMessage], timeout: Duration) {
    self.session = session
    self.beforeClose = beforeClose
    self.timeout = timeout
  }

  var requested: TickerRunner.Outcome? { reason.withLock { $0 } }

  func request(_ outcome: TickerRunner.Outcome) {
    let first = reason.withLock { reason -> Bool in
      guard reason == nil else { return false }
      reason = outcome
      return true
    }
    guard first else { return }
    let (session, beforeClose, timeout) = (session, beforeClose, timeout)
    Task {
      await session.stop(
        beforeClose: beforeClose, status: CloseStatus(code: .normalClosure), timeout: timeout)
    }
  }
}

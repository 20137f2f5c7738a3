import PriceFeed
import Synchronization
import WebSocketClient

/// One run of the feed: connect, subscribe, decode, filter, print, and stop cleanly.
struct TickerRunner: Sendable {
  /// How a run ended.
  enum Outcome: Sendable, Equatable {
    case countReached
    case readerGone
    case writeFailed(Int32)
    case signal(Int32)
    /// The server closed the connection with a close frame.
    case serverClosed(CloseStatus?)
    case failed(WebSocketError)
  }

  var provider: any Provider
  var engine: any WebSocketEngine
  var url: WebSocketURL
  var symbols: [String]
  var connectOptions: ConnectOptions
  var stage: PriceStage<ContinuousClock.Instant>
  var sink: QuoteSink
  var diagnostics: Diagnostics
  /// Seconds to wait for the server's close frame when we close.
  var closeTimeout: Double = 1

  func run() async -> Outcome {
    diagnostics.info("connecting to \(url) with the \(engine.name) engine")
    let connection: any WebSocketConnection
    do {
      connection = try await engine.connect(to: url, options: connectOptions)
    } catch {
      return .failed(error)
    }
    diagnostics.info("connected; subscribing to \(symbols.joined(separator: ", "))")

    let stopper = Stopper(
      connection: connection, provider: provider, symbols: symbols, closeTimeout: closeTimeout)
    let driver = PipelineDriver(stage: stage, sink: sink) { stop in
      switch stop {
      case .countReached: stopper.request(.countReached)
      case .readerGone: stopper.request(.readerGone)
      case .writeFailed(let e): stopper.request(.writeFailed(e))
      }
    }
    let signals = SignalWatcher { sig in stopper.request(.signal(sig)) }
    defer { signals.cancel() }

    for message in provider.subscribeMessages(for: symbols) {
      do {
        try await connection.send(message)
      } catch {
        await connection.close(CloseStatus(code: .normalClosure), timeout: closeTimeout)
        return .failed(error)
      }
    }

    var streamError: WebSocketError?
    do {
      for try await message in connection.messages {
        switch provider.decode(message) {
        case .quotes(let quotes):
          await driver.receive(quotes)
        case .partial(let quotes, let dropped):
          diagnostics.warning("dropped malformed entries: \(dropped.joined(separator: "; "))")
          await driver.receive(quotes)
        case .keepalive:
          break
        case .error(let text):
          diagnostics.warning("server error: \(text)")
        case .ignored(let type):
          diagnostics.info("ignored a message of type \"\(type)\"")
        case .malformed(let why):
          diagnostics.warning("malformed message: \(why)")
        }
      }
    } catch let error as WebSocketError {
      streamError = error
    } catch {
      streamError = .abnormalClosure
    }

    if let requested = stopper.requested {
      // Our own stop: wait for the unsubscribe-and-close to complete.
      await stopper.finished()
      if case .signal = requested { await driver.flush() }
      return requested
    }
    // The server ended it: print what is pending first, nothing valid is lost.
    await driver.flush()
    if let streamError { return .failed(streamError) }
    return .serverClosed(connection.peerCloseStatus)
  }
}

/// Ends a run from outside the receive loop (signal, --count, stdout gone): unsubscribes,
/// closes with 1000, and remembers why. The first request wins.
final class Stopper: Sendable {
  private let connection: any WebSocketConnection
  private let provider: any Provider
  private let symbols: [String]
  private let closeTimeout: Double
  private let state = Mutex<(reason: TickerRunner.Outcome?, task: Task<Void, Never>?)>((nil, nil))

  init(connection: any WebSocketConnection, provider: any Provider, symbols: [String], closeTimeout: Double) {
    self.connection = connection
    self.provider = provider
    self.symbols = symbols
    self.closeTimeout = closeTimeout
  }

  var requested: TickerRunner.Outcome? { state.withLock { $0.reason } }

  func request(_ reason: TickerRunner.Outcome) {
    state.withLock { state in
      guard state.reason == nil else { return }
      state.reason = reason
      let (connection, provider, symbols, timeout) = (connection, provider, symbols, closeTimeout)
      state.task = Task {
        for message in provider.unsubscribeMessages(for: symbols) {
          try? await connection.send(message)
        }
        await connection.close(CloseStatus(code: .normalClosure), timeout: timeout)
      }
    }
  }

  func finished() async {
    await state.withLock { $0.task }?.value
  }
}

import Emulators
import FeedRuntime
import Recording
import Synchronization
import TickerSupport
import Transport
import Venues
import WebSocketClient

/// What the conformance suite starts for a venue: its emulation on loopback, and the feed
/// runtime reading it.
enum Conformance {
  /// `symbol` as the venue's subscriptions want it.
  static func canonical(_ symbol: String, _ venue: VenueEmulation) -> String {
    (try? venue.provider.canonicalSymbol(symbol).get()) ?? symbol
  }

  /// The venue's example symbol (its demo trades it), canonical.
  static func example(_ venue: VenueEmulation) -> String { canonical(venue.provider.exampleSymbol, venue) }

  /// The venue's emulation serving `script`, then `ending`, started. The script plays at once
  /// unless `paced`; then each step and each batch of an ending's trades waits its time, at most
  /// 50 ms (a stream the client reads at its pace, not a blast that takes the machine).
  static func server(
    _ venue: VenueEmulation, script: String, ending: ConnectionPlan.Ending, plans: [ConnectionPlan] = [],
    acceptAnySymbol: Bool = false, awaitSubscriptions: Int = 1, paced: Bool = false
  ) throws -> FeedServer {
    let server = try FeedServer(
      script: SessionScript(ndjson: script),
      options: .init(
        timeScale: paced ? 1 : 0, maximumDelay: paced ? 0.05 : nil, emulation: .venue(venue), ending: ending,
        awaitSubscriptions: awaitSubscriptions, plans: plans, acceptAnySymbol: acceptAnySymbol))
    server.start()
    return server
  }

  /// A feed of `venue` at `server`, every trade printed, collecting its quotes and reports.
  final class Run: Sendable {
    let feed: Feed
    let provider: any Provider
    private let collected = Collected()
    private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])

    /// What the run has given so far.
    final class Collected: Sendable {
      let state = Mutex<(quotes: [Quote], reports: [FeedReport], outcome: FeedOutcome?)>(([], [], nil))
    }

    init(
      _ venue: VenueEmulation, server: FeedServer, symbols: [String], provider: (any Provider)? = nil,
      maximumMessageSize: Int? = nil
    ) {
      let provider = provider ?? venue.provider
      self.provider = provider
      var options = ConnectOptions(connectTimeout: 30)
      if let maximumMessageSize { options.maximumMessageSize = maximumMessageSize }
      let collected = self.collected
      feed = Feed(
        Feed.Settings(
          provider: provider, engine: NativeEngine(), url: server.url, connectOptions: options,
          session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
          symbols: symbols)
      ) { report in collected.state.withLock { $0.reports.append(report) } }
      let subscription = feed.bus.subscribe()
      let feed = self.feed
      let reader = Task.preferringCurrentExecutor {
        while let batches = try? await subscription.queue.nextBatch() {
          for quotes in batches { collected.state.withLock { $0.quotes += quotes } }
        }
      }
      let running = Task.preferringCurrentExecutor {
        let ended = await feed.run()
        collected.state.withLock { $0.outcome = ended }
      }
      tasks.withLock { $0 = [reader, running] }
    }

    var quotes: [Quote] { collected.state.withLock { $0.quotes } }
    var reports: [FeedReport] { collected.state.withLock { $0.reports } }
    /// Whether the run ended by itself.
    var ended: Bool { collected.state.withLock { $0.outcome != nil } }

    /// The quotes of the canonical `symbol` (as the venue's quotes name it).
    func quotes(of symbol: String) -> [Quote] {
      let spelled = provider.serverSymbol(for: symbol)
      return quotes.filter { $0.symbol == spelled }
    }

    /// Stops the run (as Ctrl-C does) and waits for it.
    func stop() async {
      feed.stop(.signal(2))
      for task in tasks.withLock({ $0 }) { await task.value }
    }
  }
}

import Emulators
import Outputs
import Recording
import Venues

/// `--demo`: the venue in its own wire format, from a server in this process, trading in the run's
/// one `DemoMarket`: every venue of the run around one walk, trade times of now. Any symbol the
/// venue could list trades. (The venues' recorded sessions are the emulators' templates here;
/// tests replay them whole.)
enum DemoServer {
  /// The started server; nil (after saying why) when it cannot start.
  static func start(
    _ provider: any Provider, symbols: [String], market: DemoMarket, serving: Bool, _ diagnostics: Diagnostics
  ) -> FeedServer? {
    guard let venue = VenueEmulation(provider) else {
      diagnostics.error("no demo for \(provider.displayName)")
      return nil
    }
    do {
      let server = try FeedServer(
        script: try SessionScript(ndjson: venue.demoSession),
        options: options(
          .init(
            maximumDelay: 1, emulation: .venue(venue), ending: .market(market, interval: 0.15),
            awaitSubscriptions: symbols.count, acceptAnySymbol: true,
            // Compressed, as most venues' servers do when asked: the demo exercises the path.
            compression: .init()), serving: serving))
      server.start()
      diagnostics.info(
        "demo: a simulated \(provider.displayName) market from \(server.url), in the venue's own messages")
      return server
    } catch {
      diagnostics.error("cannot start the demo server: \(error)")
      return nil
    }
  }

  /// The demo server as `serve` needs it: the replay starts at the first subscription, and no
  /// venue deadline for subscribing (clients may come much later).
  static func options(_ options: FeedServer.Options, serving: Bool) -> FeedServer.Options {
    guard serving else { return options }
    var options = options
    options.awaitSubscriptions = max(1, options.awaitSubscriptions)
    options.emulation = options.emulation.venue.map { .venue($0.patient()) } ?? options.emulation
    return options
  }
}

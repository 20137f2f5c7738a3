import Emulators
import Outputs
import Recording
import Venues

/// `--demo`: the venue's recorded session in its own wire format, from a server in this process,
/// then a seeded random walk; any other symbol the venue could list is accepted and walks from a
/// start of its own.
enum DemoServer {
  /// The started server; nil (after saying why) when it cannot start.
  static func start(_ provider: any Provider, symbols: [String], serving: Bool, _ diagnostics: Diagnostics)
    -> FeedServer?
  {
    guard let venue = VenueEmulation(provider) else {
      diagnostics.error("no demo session for \(provider.displayName)")
      return nil
    }
    do {
      let server = try FeedServer(
        script: try SessionScript(ndjson: venue.demoSession),
        options: options(
          .init(
            maximumDelay: 1, emulation: .venue(venue), ending: .synthetic(seed: 2026, interval: 0.15),
            awaitSubscriptions: symbols.count, acceptAnySymbol: true,
            // Compressed, as most venues' servers do when asked: the demo exercises the path.
            compression: .init()), serving: serving))
      server.start()
      let recorded = DemoSession.recordedSymbols(for: venue).joined(separator: ", ")
      diagnostics.info(
        "demo: replaying a recorded \(provider.displayName) session (\(recorded)) from \(server.url); "
          + "other symbols get a simulated walk")
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

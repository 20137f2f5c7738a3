import Emulators

@testable import Recording
@testable import TestSupport

/// FeedServer replaying the recorded Finnhub session (`Tests/Fixtures/finnhub-session.ndjson`)
/// as fast as it can, started: once `awaitSubscriptions` symbols are subscribed, then `ending`.
enum FinnhubReplay {
  static func start(
    awaitSubscriptions: Int = 1,
    ending: FeedServer.Options.Ending = .close(.init(code: .normalClosure, reason: "replay finished"))
  ) throws -> FeedServer {
    let script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let server = try FeedServer(
      script: script, options: .init(timeScale: 0, ending: ending, awaitSubscriptions: awaitSubscriptions))
    server.start()
    return server
  }
}

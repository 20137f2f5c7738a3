import FeedServer
import Foundation
import Testing

/// The built `ticker` binary against FeedServer replaying the recorded Finnhub session.
@Suite("ticker end to end: Finnhub replay")
struct FinnhubEndToEndTests {
  static let token = "sk-e2e-SECRET-token-0042"

  func server(
    _ fixture: String = "finnhub-session.ndjson", awaitSubscriptions: Int = 1,
    ending: FeedServer.Options.Ending = .close(.init(code: .normalClosure, reason: "replay finished"))
  ) throws -> FeedServer {
    let script = try SessionScript(ndjson: Fixture.text(fixture))
    let server = try FeedServer(
      script: script,
      options: .init(timeScale: 0, ending: ending, awaitSubscriptions: awaitSubscriptions))
    server.start()
    return server
  }

  func url(_ server: FeedServer) -> String { "ws://127.0.0.1:\(server.port)/" }

  @Test("--debounce 0: every distinct price, in trade-time order, duplicates gone")
  func distinctPrices() async throws {
    let feed = try server(awaitSubscriptions: 3)
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--symbol", "BINANCE:BTCUSDT,AAPL", "-s", "BINANCE:NOPEUSDT", "--debounce", "0"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))

    #expect(
      result.stdoutLines == [
        "2026-01-17T13:18:52.976Z\tBINANCE:BTCUSDT\t95372.09",
        "2026-01-17T13:18:53.296Z\tBINANCE:BTCUSDT\t95372.1",
        "2026-01-17T13:18:53.390Z\tBINANCE:BTCUSDT\t95371.9",
        "2026-01-17T13:18:53.402Z\tBINANCE:BTCUSDT\t95371.85",
        "2026-01-17T13:18:53.500Z\tAAPL\t122.1",
        "2026-01-17T13:18:53.501Z\tAAPL\t122.09",
        "2026-01-17T13:18:53.510Z\tBINANCE:BTCUSDT\t95372.3",
        "2026-01-17T13:19:21.000Z\tBINANCE:BTCUSDT\t95380",
      ])
    #expect(result.stderr.contains("Invalid symbol BINANCE:NOPEUSDT"))
    #expect(result.status == 0, "stderr: \(result.stderr)")
    // The token went to the server (positive control) and nowhere else.
    #expect(feed.record.targets.first?.contains("token=\(Self.token)") == true)
    #expect(!result.stdout.contains(Self.token))
    #expect(!result.stderr.contains(Self.token))
    // One subscribe per symbol, then the clean goodbye is the server's (it closed first).
    #expect(
      feed.record.clientMessages.prefix(3) == [
        #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#,
        #"{"type":"subscribe","symbol":"AAPL"}"#,
        #"{"type":"subscribe","symbol":"BINANCE:NOPEUSDT"}"#,
      ])
  }

  @Test("--every-trade: every trade as sent, duplicates included")
  func everyTrade() async throws {
    let feed = try server()
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--every-trade"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    let prices = result.stdoutLines.map { $0.split(separator: "\t").map(String.init) }
    #expect(
      prices.map { $0.last ?? "" } == [
        "95372.09", "95372.1", "95372.1", "95371.85", "95371.9", "95372.3", "95380",
      ])
    #expect(prices.allSatisfy { $0.count == 3 && $0[1] == "BINANCE:BTCUSDT" })
    #expect(result.status == 0, "stderr: \(result.stderr)")
  }

  @Test("default debounce: the latest price per symbol, flushed when the feed ends")
  func debouncedLatest() async throws {
    let feed = try server(awaitSubscriptions: 2)
    defer { feed.stop() }
    // A long interval: the whole compressed replay lands inside it on any machine, so exactly
    // the pending latest price per symbol is printed, when the server closes.
    let result = try await TickerProcess.run(
      ["--url", url(feed), "-s", "BINANCE:BTCUSDT,AAPL", "--debounce", "30"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(
      Set(result.stdoutLines) == [
        "2026-01-17T13:19:21.000Z\tBINANCE:BTCUSDT\t95380",
        "2026-01-17T13:18:53.501Z\tAAPL\t122.09",
      ])
    #expect(result.stdoutLines.count == 2)
    #expect(result.stderr.contains("server closed the connection"))
    #expect(result.status == 0)
  }

  @Test("JSON lines keep the exact price digits")
  func jsonFormat() async throws {
    let feed = try server()
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--every-trade", "--format", "json", "--count", "1"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.stdoutLines.count == 1)
    let line = try #require(result.stdoutLines.first)
    #expect(line.contains(#""price":95372.09"#))
    #expect(line.contains(#""symbol":"BINANCE:BTCUSDT""#))
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(object?["t"] as? Int == 1_768_655_932_976)
    #expect(result.status == 0)
  }

  @Test("401 at the handshake: token refused, exit 77, one attempt, token never printed")
  func unauthorized() async throws {
    let feed = try server("finnhub-unauthorized.ndjson")
    defer { feed.stop() }
    let result = try await TickerProcess.run(
      ["--url", url(feed), "--verbose"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 77)
    #expect(result.stderr.contains("401"))
    #expect(result.stderr.lowercased().contains("token"))
    #expect(result.stdout.isEmpty)
    #expect(feed.record.connections == 1)
    #expect(feed.record.targets.first?.contains(Self.token) == true)
    #expect(!result.stderr.contains(Self.token))
    // --verbose printed the URL, redacted.
    #expect(result.stderr.contains("token=***"))
  }

  @Test("no token: a usage error before any connection")
  func missingToken() async throws {
    let feed = try server()
    defer { feed.stop() }
    let result = try await TickerProcess.run(["--url", url(feed)])
    #expect(result.status == 64)
    #expect(result.stderr.contains("FINNHUB_TOKEN"))
    #expect(feed.record.connections == 0)
  }
}

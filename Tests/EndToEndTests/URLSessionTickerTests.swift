import Foundation
import TestSupport
import Testing

/// The built `ticker` with the URLSession harness: which engine `auto` picks in each situation
/// and which layer `--verbose` says decided; `--engine urlsession` forced; and the workarounds:
/// a Finnhub message over 4 KiB and a fragmented one (both of which corelibs 6.3.1 hands over in
/// pieces) end in the native engine taking over, with no crash and no corrupt price.
@Suite(
  "URLSession engine in the ticker",
  .requires(.urlSessionHarness),
  .enabled(if: !TickerProcess.executableIsStatic, TickerProcess.staticSkipReason),
  .timeLimit(.minutes(3)))
struct URLSessionTickerTests {
  @Test(
    "auto picks native and says which layer decided",
    arguments: [
      (URLSessionHarness.Libcurl.stock, "decided by layer 1, compile-time imports"),
      (.debian, "decided by layer 2, runtime libcurl protocols: libcurl 7.88.1"),
      (.backports, "decided by layer 3, known corelibs bugs"),
    ])
  func autoPicksNative(_ libcurl: URLSessionHarness.Libcurl, _ decided: String) async throws {
    let run = try await TickerProcess.run(
      ["--demo", "--count", "1", "-v"], environment: URLSessionHarness.environment(libcurl))
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdoutLines.count == 1)
    let line = run.stderr.split(separator: "\n").first { $0.contains("ticker: engine ") } ?? ""
    #expect(
      line.hasPrefix("ticker: engine native: auto: URLSession") && line.contains(": \(decided)"), "\(line)")
    if libcurl == .backports {
      #expect(line.contains("layer 2, runtime libcurl protocols: libcurl 8.14.1"), "\(line)")
      #expect(line.contains("lists ws, wss"), "\(line)")
    }
  }

  @Test(
    "--engine urlsession with libcurl 8.14.1: prices from FeedServer, and a warning naming the known limits")
  func forcedWorks() async throws {
    let run = try await URLSessionHarness.runTicker([
      "--demo", "--count", "3", "--engine", "urlsession", "-v",
    ])
    #expect(run.status == 0, "\(run.termination?.description ?? "did not end"): \(run.stderr)")
    #expect(run.stdoutLines.count == 3)
    #expect(run.stdoutLines.allSatisfy { $0.contains("\tBINANCE:BTCUSDT\t") })
    #expect(run.stderr.contains("ticker: warning: the URLSession engine on Linux has known corelibs"))
    #expect(run.stderr.contains("messages over about 4 KiB arrive cut into pieces"))
    #expect(run.stderr.contains("connecting to ws://127.0.0.1:"))
    #expect(run.stderr.contains("with the urlsession engine"))
  }

  @Test(
    "--engine urlsession where WebSockets are unsupported: exit 69 with the reason",
    arguments: [URLSessionHarness.Libcurl.debian, .stock])
  func forcedUnsupported(_ libcurl: URLSessionHarness.Libcurl) async throws {
    let run = try await TickerProcess.run(
      ["--demo", "--count", "1", "--engine", "urlsession"],
      environment: URLSessionHarness.environment(libcurl))
    #expect(run.status == 69)
    #expect(run.stderr.contains("WebSockets not supported by libcurl"))
    #expect(run.stdout.isEmpty)
  }

  static let largePrices = (1...80).map { i in i % 10 == 0 ? "100.\(i / 10)" : String(format: "100.%02d", i) }

  @Test(
    "a cut or fragmented Finnhub message: the native engine takes over, every price intact",
    arguments: [
      ("finnhub-large", largePrices + ["101.5"]),
      ("finnhub-fragmented", ["99.25", "101.5"]),
    ])
  func cutMessagesFailOver(_ scenario: String, _ prices: [String]) async throws {
    let (peer, port) = try await LinePeer.python("urlsession_peer.py", [scenario])
    let run = try await TickerProcess.run(
      [
        "--url", "ws://127.0.0.1:\(port)", "--engine", "urlsession", "--every-trade", "-s", "AAPL",
        "--count", "\(prices.count)", "-v",
      ],
      environment: URLSessionHarness.environment(.backports, ["FINNHUB_TOKEN": "test-token-1234"]))
    await peer.finish()
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdoutLines.map { $0.split(separator: "\t").last.map(String.init) ?? $0 } == prices)
    #expect(run.stderr.contains("that is not a whole JSON text"), "\(run.stderr)")
    #expect(run.stderr.contains("the native engine takes over from the next connection"))
    #expect(run.stderr.contains("reconnected (attempt 1)"))
    #expect(!run.stderr.contains("Fatal error"))
    #expect(!run.stderr.contains("test-token-1234"))
  }
}

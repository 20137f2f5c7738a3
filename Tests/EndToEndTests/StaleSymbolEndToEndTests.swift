import Foundation
import Recording
import Testing

@testable import Emulators
@testable import TestSupport

/// `--stale-after`: the built ticker against a scripted Finnhub whose AAPL trades all along while
/// MSFT stays quiet, then trades once: MSFT is reported stale once, then recovered once.
@Suite("ticker end to end: stale symbols")
struct StaleSymbolEndToEndTests {
  static let token = "sk-e2e-stale-token-0077"

  /// AAPL every 250 ms for 6 s; MSFT's one trade at 6 s (its silence is 6 s against a 1 s limit:
  /// the report comes with seconds to spare on a loaded machine); then the connection is held.
  static func script() -> SessionScript {
    var steps = [
      SessionScript.Step(direction: .server, kind: .http, afterMilliseconds: 0, body: "HTTP/1.1 101")
    ]
    let start: Int64 = 1_768_655_932_000
    for index in 1...24 {
      steps.append(trade("AAPL", "\(120 + index).5", start + Int64(index) * 250, after: 250))
    }
    steps.append(trade("MSFT", "410.25", start + 6_100, after: 100))
    return SessionScript(steps: steps)
  }

  static func trade(_ symbol: String, _ price: String, _ time: Int64, after: Int) -> SessionScript.Step {
    SessionScript.Step(
      direction: .server, kind: .text, afterMilliseconds: after,
      body: #"{"data":[{"c":null,"p":\#(price),"s":"\#(symbol)","t":\#(time),"v":1}],"type":"trade"}"#)
  }

  @Test("a quiet symbol is said once on stderr, and its recovery once")
  func staleThenRecovered() async throws {
    let server = try FeedServer(
      script: Self.script(), options: .init(timeScale: 1, ending: .hold, awaitSubscriptions: 2))
    server.start()
    defer { server.stop() }
    let result = try await TickerProcess.run(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "--symbol", "AAPL,MSFT", "--every-trade", "--stale-after",
        "1",
        "--count", "25",
      ],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(result.stdoutLines.count == 25)
    #expect(result.stdoutLines.last?.hasSuffix("\tMSFT\t410.25") == true)
    let stale = result.stderr.split(separator: "\n").map(String.init).filter {
      $0.contains("no price for MSFT")
    }
    let recovered = result.stderr.split(separator: "\n").map(String.init).filter {
      $0.contains("MSFT has prices again")
    }
    #expect(stale.count == 1, "stderr: \(result.stderr)")
    #expect(stale.first?.hasPrefix("ticker: warning: no price for MSFT for ") == true)
    #expect(stale.first?.hasSuffix("while Finnhub is connected and sending (--stale-after)") == true)
    #expect(recovered.count == 1, "stderr: \(result.stderr)")
    // The symbol that traded all along never was.
    #expect(!result.stderr.contains("no price for AAPL"))
    #expect(!result.stderr.contains(Self.token))
  }
}

import Emulators
import Foundation
import Testing

/// `--alert` and `--until` against the replayed Finnhub session. Every trade, in arrival order:
/// 95372.09, 95372.1, 95372.1, 95371.85, 95371.9, (AAPL 122.1, 122.09), 95372.3, 95380 — then
/// the server closes with 1000.
@Suite("alerts and --until, end to end")
struct AlertEndToEndTests {
  static let token = "sk-alert-token-0007"

  func run(_ arguments: [String], symbols: Int = 1) async throws -> TickerProcess.Result {
    let server = try FinnhubReplay.start(awaitSubscriptions: symbols)
    defer { server.stop() }
    return try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(server.port)/"] + arguments,
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
  }

  static func alerts(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").filter { $0.hasPrefix("ticker: alert: ") }.map(String.init)
  }

  @Test("a line when the condition becomes true, none while it stays true, again after it was false")
  func alertLines() async throws {
    let result = try await run(["--every-trade", "--alert", "BINANCE:BTCUSDT>95372.09"])
    #expect(
      Self.alerts(result.stderr) == [
        "ticker: alert: BINANCE:BTCUSDT>95372.09: 95372.1 at 2026-01-17T13:18:53.296Z",
        "ticker: alert: BINANCE:BTCUSDT>95372.09: 95372.3 at 2026-01-17T13:18:53.510Z",
      ])
    // Alerts do not change what is printed, nor how the run ends; stderr is a pipe: no bell.
    #expect(result.stdoutLines.count == 7)
    #expect(result.status == 0)
    #expect(!result.stderr.utf8.contains(0x07))
  }

  @Test("alerts judge every trade, even ones the debounce never prints")
  func alertsSeeThroughTheDebounce() async throws {
    // A 30 s debounce prints one line per symbol at the end; the dip to 95371.85 still alerts.
    let result = try await run(["--debounce", "30", "--alert", "BINANCE:BTCUSDT<95372"])
    #expect(result.stdoutLines == ["2026-01-17T13:19:21.000Z\tBINANCE:BTCUSDT\t95380"])
    #expect(
      Self.alerts(result.stderr) == [
        "ticker: alert: BINANCE:BTCUSDT<95372: 95371.85 at 2026-01-17T13:18:53.402Z"
      ])
  }

  @Test("a move from the first price, measured exactly")
  func move() async throws {
    // 95372.09 × (1 − 0.000002) = 95371.89925582: 95371.85 is below it, 95371.9 is not.
    let result = try await run(["--every-trade", "--alert", "BINANCE:BTCUSDT-0.0002%"])
    #expect(
      Self.alerts(result.stderr) == [
        "ticker: alert: BINANCE:BTCUSDT-0.0002%: 95371.85, -0.00% from 95372.09, at 2026-01-17T13:18:53.402Z"
      ])
  }

  @Test("--until: exit 0 the first time it holds, with what was printed up to it")
  func untilMet() async throws {
    let result = try await run(["--every-trade", "--until", "BINANCE:BTCUSDT>=95372.3"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(result.stdoutLines.last == "2026-01-17T13:18:53.510Z\tBINANCE:BTCUSDT\t95372.3")
    #expect(!result.stdout.contains("95380"))
    #expect(
      Self.alerts(result.stderr) == [
        "ticker: alert: BINANCE:BTCUSDT>=95372.3: 95372.3 at 2026-01-17T13:18:53.510Z; stopping (--until)"
      ])
  }

  @Test("--until never met: exit 1 when the run ends otherwise")
  func untilNotMet() async throws {
    let result = try await run(["--every-trade", "--until", "BINANCE:BTCUSDT>100000"])
    #expect(result.status == 1)
    #expect(result.stdoutLines.count == 7)
    #expect(result.stderr.contains("the run ended before any --until condition held"))
    let counted = try await run(["--every-trade", "--count", "2", "--until", "BINANCE:BTCUSDT>100000"])
    #expect(counted.status == 1)
  }

  @Test(
    "bad conditions and unfollowed symbols are usage errors",
    arguments: [
      (["--alert", "BINANCE:BTCUSDT>>1"], "the operator must be one of"),
      (["--until", "BINANCE:BTCUSDT"], "does not end with a price or a percentage"),
      (["--alert", "BINANCE:BTCUSDT 2%"], "no +, - or ± before the percentage"),
      (["--until", "AAPL>1"], "AAPL is not followed (add --symbol AAPL)"),
    ])
  func usage(arguments: [String], message: String) async throws {
    let result = try await TickerProcess.run(
      arguments, environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test("every symbol refused: exit 65 with the reason, not silence")
  func everySymbolRefused() async throws {
    // The server keeps the connection open after its script: only the refusal can end the run.
    let server = try FinnhubReplay.start(ending: .hold)
    defer { server.stop() }
    let result = try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(server.port)/", "-s", "BINANCE:NOPEUSDT"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 65)
    #expect(result.stderr.contains("every symbol was refused (BINANCE:NOPEUSDT)"), "\(result.stderr)")
  }
}

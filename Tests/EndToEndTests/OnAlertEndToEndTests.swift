import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport

/// `--on-alert CMD` with the built binary against a Finnhub server that sends the trades a test
/// writes: the alert reaches the command through its environment only, a hostile symbol runs
/// nothing, and a command that hangs holds back neither the prices nor the end of the run.
@Suite("--on-alert, end to end")
struct OnAlertEndToEndTests {
  static let token = "sk-on-alert-token-0042"

  /// A Finnhub trade message for one trade, the symbol JSON-escaped.
  static func trade(_ symbol: String, _ price: String, at time: Int64) -> String {
    var escaped = ""
    for scalar in symbol.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return #"{"data":[{"c":null,"p":\#(price),"s":"\#(escaped)","t":\#(time),"v":1}],"type":"trade"}"#
  }

  /// A server sending `messages`, then closing with 1000 (or holding the connection open).
  static func server(_ messages: [String], hold: Bool = false) throws -> FeedServer {
    let steps = messages.map {
      SessionScript.Step(direction: .server, kind: .text, afterMilliseconds: 5, body: $0)
    }
    let server = try FeedServer(
      script: SessionScript(steps: steps),
      options: hold
        ? .init(timeScale: 0, emulation: .verbatim, ending: .hold)
        : .init(timeScale: 0, emulation: .verbatim))
    server.start()
    return server
  }

  static func directory() -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ticker-on-alert-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test("hostile symbols reach the command as values, never as shell: each run sees exactly its alert")
  func hostileSymbols() async throws {
    let dir = Self.directory()
    let symbols = [
      "$(touch \(dir.path)/pwned1)", "a;touch \(dir.path)/pwned2", "`touch \(dir.path)/pwned3`",
      "q'\"x", "n\nl",
    ]
    let server = try Self.server(
      symbols.enumerated().map { Self.trade($1, "10\($0)", at: 1_768_655_932_970 + Int64($0)) })
    defer { server.stop() }
    let out = dir.appendingPathComponent("alerts").path
    var arguments = ["--url", "ws://127.0.0.1:\(server.port)/", "--every-trade"]
    for symbol in symbols { arguments += ["-s", symbol, "--alert", "\(symbol)>1"] }
    // One write per run (NUL-separated fields, so that a newline in a symbol stays in it), then a
    // failure, which is reported.
    arguments += [
      "--on-alert",
      #"printf '%s\000%s\000%s\000%s\000%s\000' "$TICKER_ALERT" "$TICKER_PROVIDER" "$TICKER_SYMBOL" "$TICKER_PRICE" "$TICKER_TIME" >> "$ALERTS_OUT"; printf 'token:%s\n' "${FINNHUB_TOKEN:-none}"; exit 3"#,
    ]
    let result = try await TickerProcess.run(
      arguments,
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token, "ALERTS_OUT": out]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == symbols.count)
    for name in ["pwned1", "pwned2", "pwned3"] {
      #expect(
        !FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), "\(name) created")
    }
    let fields = try String(contentsOfFile: out, encoding: .utf8).split(
      separator: "\0", omittingEmptySubsequences: false
    )
    .dropLast().map(String.init)
    #expect(fields.count == symbols.count * 5, "\(fields)")
    var seen: [String: [String]] = [:]
    for start in stride(from: 0, to: fields.count - 4, by: 5) {
      seen[fields[start + 2]] = Array(fields[start..<start + 5])
    }
    for (index, symbol) in symbols.enumerated() {
      let time = "2026-01-17T13:18:52.97\(index)Z"
      #expect(seen[symbol] == ["\(symbol)>1", "finnhub", symbol, "10\(index)", time], "\(symbol): \(seen)")
    }
    // The command never sees the API token; its failure is reported, once per run.
    #expect(
      result.stderr.components(separatedBy: "token:none").count - 1 == symbols.count, "\(result.stderr)")
    #expect(!result.stderr.contains(Self.token))
    #expect(result.stderr.components(separatedBy: "exited with status 3").count - 1 == symbols.count)
  }

  @Test("one command at a time per condition: an alert that fires meanwhile waits, the latest one runs next")
  func onePerCondition() async throws {
    let dir = Self.directory()
    let out = dir.appendingPathComponent("runs").path
    let gate = dir.appendingPathComponent("gate").path
    // Crossing 2 three times: 3, 4 and 5 fire; 4 waits for 3's command and is replaced by 5.
    let prices = ["1", "3", "1", "4", "1", "5"]
    let server = try Self.server(
      prices.enumerated().map { Self.trade("S", $1, at: 1_768_655_932_000 + Int64($0)) }, hold: true)
    defer { server.stop() }
    let ticker = try RunningTicker(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "-s", "S", "--every-trade", "--alert", "S>2", "--on-alert",
        #"echo "$TICKER_PRICE" >> "$RUNS_OUT"; while [ ! -e "$GATE" ]; do sleep 0.05; done"#,
      ],
      environment: TickerProcess.cleanEnvironment([
        "FINNHUB_TOKEN": Self.token, "RUNS_OUT": out, "GATE": gate,
      ]))
    // Every price printed while the first command is held at the gate: it holds nothing back.
    let printed = await ticker.lines(prices.count)
    #expect(printed.map { $0.split(separator: "\t").last.map(String.init) ?? "" } == prices)
    #expect(await eventually { (try? String(contentsOfFile: out, encoding: .utf8)) == "3\n" })
    FileManager.default.createFile(atPath: gate, contents: nil)
    #expect(await eventually { (try? String(contentsOfFile: out, encoding: .utf8)) == "3\n5\n" })
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    #expect(stderr.components(separatedBy: "ticker: alert: S>2").count - 1 == 3, "\(stderr)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "3\n5\n")
  }

  @Test("a command that hangs: prices go on, the run ends after the grace period and ends the command")
  func hangingCommand() async throws {
    let marker = "987\(Int.random(in: 100_000...999_999))"
    let prices = ["1", "3", "1", "4"]
    let server = try Self.server(
      prices.enumerated().map { Self.trade("S", $1, at: 1_768_655_932_000 + Int64($0)) })
    defer { server.stop() }
    let started = ContinuousClock.now
    let result = try await TickerProcess.run(
      [
        "--url", "ws://127.0.0.1:\(server.port)/", "-s", "S", "--every-trade", "--alert", "S>2", "--on-alert",
        "exec sleep \(marker)",
      ],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.map { $0.split(separator: "\t").last.map(String.init) ?? "" } == prices)
    #expect(
      result.stderr.contains("the --on-alert command for S>2 was still running when the run ended"),
      "\(result.stderr)")
    #expect(
      result.stderr.contains("1 alert(s) did not run --on-alert: the run ended first"), "\(result.stderr)")
    #expect(!result.stderr.contains("ended by signal"), "ending it was said once: \(result.stderr)")
    // Bounded: the grace period, not the command's thousands of seconds.
    #expect(ContinuousClock.now - started < .seconds(60))
    // Its process group was ended with it: no `sleep` of ours is left.
    let left = try await TickerProcess.run(
      ["-f", "sleep \(marker)"], program: URL(fileURLWithPath: "/usr/bin/pgrep"))
    #expect(left.status == 1, "still running: \(left.stdout)")
  }
}

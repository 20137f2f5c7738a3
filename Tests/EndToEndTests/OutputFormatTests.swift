import CLI
import Emulators
import FeedRuntime
import Foundation
import Outputs
import Testing
import Venues

@testable import TestSupport
@testable import TickerSupport

/// Every format, golden, from the built binary against the replayed Finnhub session (every trade,
/// two symbols, so the lines are the same on every run). The receive time is the one thing that
/// differs between runs: it is checked to lie within the run and to agree with itself, then
/// replaced by a placeholder before comparing. `TICKER_UPDATE_GOLDEN=1 swift test` rewrites the
/// golden files.
@Suite("output formats: golden, from the replayed Finnhub session")
struct OutputFormatTests {
  static let token = "sk-format-token-0099"

  struct Case: Sendable, CustomStringConvertible {
    var golden: String
    var arguments: [String]
    var symbols = "BINANCE:BTCUSDT,AAPL"
    var description: String { golden }
  }

  static let cases: [Case] = [
    Case(golden: "format-text.txt", arguments: []),
    Case(golden: "format-text-no-time.txt", arguments: ["--timestamps", "none"]),
    Case(golden: "format-json.txt", arguments: ["--format", "json"]),
    Case(golden: "format-csv.txt", arguments: ["--format", "csv"]),
    Case(golden: "format-csv-received.txt", arguments: ["--format", "csv", "--timestamps", "received"]),
    Case(golden: "format-tsv.txt", arguments: ["--format", "tsv"]),
    Case(golden: "format-price.txt", arguments: ["--format", "price"], symbols: "BINANCE:BTCUSDT"),
  ]

  @Test(arguments: cases)
  func golden(_ format: Case) async throws {
    let server = try FinnhubReplay.start(awaitSubscriptions: format.symbols.split(separator: ",").count)
    defer { server.stop() }
    let before = Self.now()
    let result = try await TickerProcess.run(
      ["--url", "ws://127.0.0.1:\(server.port)/", "-s", format.symbols, "--every-trade"] + format.arguments,
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token]))
    let after = Self.now()
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(!result.stdout.utf8.contains(0x1B))
    let normalized = try Self.normalizeReceived(result.stdout, within: before...after)
    let path = Fixture.directory.appendingPathComponent("golden/" + format.golden)
    if ProcessInfo.processInfo.environment["TICKER_UPDATE_GOLDEN"] == "1" {
      try normalized.write(to: path, atomically: true, encoding: .utf8)
    } else {
      #expect(normalized == (try Fixture.text("golden/" + format.golden)))
    }
  }

  static func milliseconds(_ iso: String) -> Int64? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: iso).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
  }

  static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

  /// Receive times (json's `received`/`rt`, a csv `received` column) → placeholders, after
  /// checking each lies within the run and the two json spellings agree.
  static func normalizeReceived(_ text: String, within window: ClosedRange<Int64>) throws -> String {
    let slack = (window.lowerBound - 1)...(window.upperBound + 1)
    var lines: [String] = []
    var receivedColumn = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = String(line)
      if index == 0 && line.hasPrefix("received,") { receivedColumn = true }
      if receivedColumn && index > 0 && !line.isEmpty {
        let iso = String(line.prefix { $0 != "," })
        let ms = try #require(Self.milliseconds(iso), "\(iso)")
        #expect(slack.contains(ms), "received \(iso) outside the run")
        line = "RECEIVED" + line.dropFirst(iso.count)
      }
      if let range = line.range(of: #","received":""#) {
        let rest = line[range.upperBound...]
        let iso = String(rest.prefix { $0 != "\"" })
        let rtStart = try #require(line.range(of: #","rt":"#))
        let rt = try #require(Int64(line[rtStart.upperBound...].prefix { $0.isNumber }))
        #expect(UTCTimestamp.string(milliseconds: rt) == iso)
        #expect(slack.contains(rt), "rt \(rt) outside the run")
        line = line.replacingOccurrences(of: iso, with: "RECEIVED")
          .replacingOccurrences(of: #""rt":\#(rt)"#, with: #""rt":RT"#)
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}

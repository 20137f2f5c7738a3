import FeedRuntime
import Foundation
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport

@Suite("FeedServer: scripts and Finnhub emulation (pure)")
struct FeedServerScriptTests {
  @Test("every fixture parses; the Finnhub one has its handshake and steps")
  func parsesFixtures() throws {
    for name in [
      "finnhub-session.ndjson", "finnhub-unauthorized.ndjson", "upbit-session.ndjson",
      "binance-session.ndjson", "coinbase-session.ndjson", "kraken-session.ndjson", "okx-session.ndjson",
    ] {
      let script = try SessionScript(ndjson: Fixture.text(name))
      #expect(!script.steps.isEmpty, "\(name)")
    }
    let finnhub = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    #expect(finnhub.handshakeStatus.code == 101)
    #expect(finnhub.steps.count == 13)
    #expect(
      finnhub.steps[1]
        == .init(
          direction: .client, kind: .text, afterMilliseconds: 5,
          body: #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#))
    let refused = try SessionScript(ndjson: Fixture.text("finnhub-unauthorized.ndjson"))
    #expect(refused.handshakeStatus.code == 401)
    #expect(refused.handshakeStatus.reason == "Unauthorized")
  }

  @Test("a bad line is reported with its number")
  func badLine() {
    #expect(throws: SessionScript.ParseError.self) {
      try SessionScript(
        ndjson: "{\"dir\":\"S>\",\"kind\":\"text\",\"after_ms\":0,\"body\":\"x\"}\nnot json\n")
    }
    do {
      _ = try SessionScript(ndjson: "\n{\"dir\":\"X\"}")
      Issue.record("expected an error")
    } catch {
      guard case .invalidLine(let line, _) = error else { return }
      #expect(line == 2)
    }
  }

  @Test("the demo replays exactly the Finnhub fixture")
  func demoMatchesFixture() throws {
    let fixture = try Fixture.text("finnhub-session.ndjson")
    #expect(DemoSession.finnhub == fixture.trimmingCharacters(in: .newlines))
  }

  @Test("subscribe, unknown symbol, unsubscribe, filtering with exact digits")
  func emulation() throws {
    var emulator = FinnhubEmulator(
      script: try SessionScript(ndjson: try Fixture.text("finnhub-session.ndjson")))
    #expect(emulator.knownSymbols == ["BINANCE:BTCUSDT", "AAPL"])
    #expect(emulator.receive(clientText: #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#).isEmpty)
    #expect(
      emulator.receive(clientText: #"{"type":"subscribe","symbol":"BINANCE:NOPEUSDT"}"#)
        == [#"{"msg":"Invalid symbol BINANCE:NOPEUSDT","type":"error"}"#])
    #expect(emulator.subscriptions == ["BINANCE:BTCUSDT"])
    #expect(emulator.subscribeRequests == 2)

    let mixed =
      #"{"data":[{"c":["1"],"p":122.1,"s":"AAPL","t":1,"v":1},{"c":null,"p":95372.30,"s":"BINANCE:BTCUSDT","t":2,"v":0.0009}],"type":"trade"}"#
    #expect(
      emulator.outgoing(mixed)
        == #"{"data":[{"c":null,"p":95372.30,"s":"BINANCE:BTCUSDT","t":2,"v":0.0009}],"type":"trade"}"#)
    #expect(emulator.outgoing(#"{"data":[{"p":1,"s":"AAPL","t":1,"v":1}],"type":"trade"}"#) == nil)
    #expect(emulator.outgoing(#"{"type":"ping"}"#) == #"{"type":"ping"}"#)
    #expect(emulator.outgoing(#"{"msg":"Invalid symbol X","type":"error"}"#) == nil)

    #expect(emulator.receive(clientText: #"{"type":"unsubscribe","symbol":"BINANCE:BTCUSDT"}"#).isEmpty)
    #expect(emulator.subscriptions.isEmpty)
    #expect(emulator.receive(clientText: "nonsense").first?.contains("\"type\":\"error\"") == true)
  }

  @Test("the synthetic stream is deterministic, decodable, and only for known symbols")
  func synthetic() throws {
    let script = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let emulator = FinnhubEmulator(script: script)
    var a = emulator.syntheticTrades(seed: 7)
    var b = emulator.syntheticTrades(seed: 7)
    let provider = FinnhubProvider()
    var lastTime: Int64 = 0
    for _ in 0..<200 {
      let next = a.nextMessage(symbols: ["BINANCE:BTCUSDT", "NOPE"], elapsedMilliseconds: 100)
      let again = b.nextMessage(symbols: ["BINANCE:BTCUSDT", "NOPE"], elapsedMilliseconds: 100)
      let message = try #require(next)
      #expect(message == again)
      guard case .quotes(let quotes) = provider.decode(.text(message)) else {
        Issue.record("not decodable: \(message)")
        return
      }
      #expect(quotes.allSatisfy { $0.symbol == "BINANCE:BTCUSDT" && $0.price.value > 0 })
      #expect(quotes.allSatisfy { $0.time > lastTime })
      lastTime = quotes.map(\.time).max() ?? lastTime
    }
    #expect(a.nextMessage(symbols: ["NOPE"], elapsedMilliseconds: 100) == nil)
  }

  @Test(
    "cents formatting reads like a JSON number",
    arguments: [
      (Int64(9_538_000), "95380"), (9_538_050, "95380.5"), (9_538_005, "95380.05"), (1, "0.01"),
    ])
  func centsFormatting(cents: Int64, text: String) {
    #expect(SyntheticTrades.format(cents: cents) == text)
    #expect(SyntheticTrades.parseCents(text) == cents)
  }
}

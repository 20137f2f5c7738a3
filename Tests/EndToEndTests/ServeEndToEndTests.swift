import Emulators
import Foundation
import TestSupport
import Testing

@testable import Recording

/// `ticker serve` as a real process, with real clients: the built `ticker`, `websocat` and Python
/// `websockets` (independent implementations), a raw socket that stops reading, and FeedServer as
/// the upstream venue so that what serve says upstream can be checked on the wire.
@Suite("ticker serve", .serialized)
struct ServeEndToEndTests {
  /// Three symbols traded in turn, 20 trades each, with prices whose decimal text must survive
  /// exactly (trailing zeros included).
  static let symbols = ["BINANCE:AAAUSDT", "BINANCE:BBBUSDT", "BINANCE:CCCUSDT"]
  static func price(_ symbol: Int, _ index: Int) -> String { "\(symbol + 1)\(index).10" }
  static let script: String = {
    var lines = [ServeRun.accepted]
    for index in 0..<20 {
      // Some messages carry all three symbols, some one.
      if index % 3 == 0 {
        lines.append(ServeRun.trade(symbols.indices.map { (symbols[$0], price($0, index), 1_000 + index) }))
      } else {
        for s in symbols.indices {
          lines.append(ServeRun.trade([(symbols[s], price(s, index), 1_000 + index)]))
        }
      }
    }
    return lines.joined(separator: "\n")
  }()

  @Test(
    "ticker, websocat and Python clients at once each get exactly their own symbol's trades, in order",
    .requires(.websocat, .pythonWebsockets))
  func fanOut() async throws {
    let upstream = try ServeRun.upstream(Self.script, awaitSubscriptions: 3)
    defer { upstream.stop() }
    let env = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "upstream-key"])
    let serve = try await ServeRun.start(["--url", upstream.url.description], environment: env)

    let ticker = try RunningTicker(
      ["--url", serve.url, "-s", Self.symbols[0], "--every-trade", "--format", "price", "--count", "20"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "anything"]))
    let websocat = try serve.websocat()
    websocat.send(subscribe(Self.symbols[1]))
    let (python, opened) = try await serve.python()
    #expect(opened == "OPEN")
    python.send(subscribe(Self.symbols[2]))

    // The ticker client: the bare prices, exactly as the venue wrote them.
    let prices = await ticker.lines(20)
    #expect(prices == (0..<20).map { Self.price(0, $0) })
    #expect(await ticker.exit().status == 0)

    // websocat and Python: Finnhub-shaped trade messages of their own symbol only, in order.
    for (peer, s, prefix) in [(websocat, 1, ""), (python, 2, "TEXT ")] {
      var seen: [String] = []
      while seen.count < 20 {
        guard let line = await peer.expect({ $0.contains("\"type\":\"trade\"") }) else { break }
        let text = String(line.dropFirst(prefix.count))
        #expect(
          text.hasPrefix(#"{"data":[{"c":null,"p":"#) && text.hasSuffix(#"}],"type":"trade"}"#), "\(text)")
        for other in Self.symbols where other != Self.symbols[s] { #expect(!text.contains(other), "\(text)") }
        seen += Self.pricesIn(text)
      }
      #expect(seen == (0..<20).map { Self.price(s, $0) })
    }
    // The upstream was asked for each symbol once.
    for symbol in Self.symbols {
      #expect(upstream.count(subscribe(symbol)) == 1, "\(upstream.record.clientMessages)")
    }
    await websocat.finish()
    await python.finish()
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(ended.status == 130, "\(ended.stderr)")
  }

  @Test(
    "any venue upstream (the demo): Finnhub-shaped trades, the symbol as the venue spells it",
    .requires(.websocat, .pythonWebsockets),
    arguments: [
      ("finnhub", "BINANCE:BTCUSDT", "BINANCE:BTCUSDT"), ("binance", "btcusdt", "BTCUSDT"),
      ("upbit", "krw-btc", "KRW-BTC"), ("coinbase", "btc-usd", "BTC-USD"), ("kraken", "btc/usd", "BTC/USD"),
      ("okx", "btc-usdt", "BTC-USDT"),
    ])
  func anyVenue(provider: String, asked: String, spelled: String) async throws {
    let serve = try await ServeRun.start(["--demo", "--provider", provider])
    let (peer, first) = try await serve.python()
    #expect(first == "OPEN")
    peer.send(subscribe(asked))
    let trade = try #require(
      await peer.expect { $0.contains(#""type":"trade""#) }, "\(serve.process.stderrSoFar)")
    #expect(trade.hasPrefix(#"TEXT {"data":[{"c":null,"p":"#), "\(trade)")
    #expect(trade.contains(#""s":"\#(spelled)","t":"#), "\(trade)")
    await peer.finish()
    serve.process.signal(SIGINT)
    #expect(await serve.process.exit().status == 130)
  }

  /// The `"p":` texts of a trade message, in order.
  static func pricesIn(_ text: String) -> [String] {
    text.components(separatedBy: #""p":"#).dropFirst().map { String($0.prefix { $0 != "," }) }
  }

  @Test(
    "the upstream follows the union: subscribed when the first client asks, unsubscribed when the last leaves",
    .requires(.websocat, .pythonWebsockets))
  func unionOnTheWire() async throws {
    let upstream = try ServeRun.upstream(ServeRun.accepted)
    defer { upstream.stop() }
    let serve = try await ServeRun.start(
      ["--url", upstream.url.description], environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "k"])
    )
    let first = try serve.websocat()
    let second = try serve.websocat()
    func upstreamSaw(_ message: String) async -> Bool {
      await eventually { upstream.count(message) > 0 }
    }

    first.send(subscribe("X"))
    #expect(await upstreamSaw(subscribe("X")))
    second.send(subscribe("X"))
    second.send(subscribe("Y"))  // a marker: once it is upstream, the second "X" was handled
    #expect(await upstreamSaw(subscribe("Y")))
    #expect(upstream.count(subscribe("X")) == 1)

    first.send(unsubscribe("X"))  // the second client still follows X
    first.send(subscribe("Z"))
    #expect(await upstreamSaw(subscribe("Z")))
    #expect(upstream.count(unsubscribe("X")) == 0)

    await second.finish()  // the last follower of X and Y leaves
    #expect(await upstreamSaw(unsubscribe("X")))
    #expect(await upstreamSaw(unsubscribe("Y")))
    #expect(upstream.count(unsubscribe("Z")) == 0)
    await first.finish()
    #expect(await upstreamSaw(unsubscribe("Z")))
    #expect(
      upstream.record.clientMessages == [
        subscribe("X"), subscribe("Y"), subscribe("Z"), unsubscribe("X"), unsubscribe("Y"), unsubscribe("Z"),
      ])
    // A client's unsubscriptions go upstream before the hub finishes with it (up to 0.5 s for
    // its close) and logs it: on a loaded machine a SIGTERM sent now could end serve first.
    let process = serve.process
    _ = await eventually {
      let said = process.stderrSoFar
      return said.contains("client 1 disconnected") && said.contains("client 2 disconnected")
    }

    serve.process.signal(SIGTERM)
    let ended = await serve.process.exit()
    #expect(ended.status == 143)
    #expect(ended.stderr.contains("client 1 connected") && ended.stderr.contains("client 2 disconnected"))
    // SIGTERM: the upstream is closed with 1000.
    #expect(await eventually { upstream.record.clientCloses.contains { $0?.code == .normalClosure } })
  }

  @Test(
    "a client that stops reading is dropped (1008) while the others get every trade; memory stays bounded",
    .requires(.websocat, .pythonWebsockets))
  func slowClientDropped() async throws {
    let count = 60_000
    // The replay starts once the second upstream subscription (AAPL) arrives: by then every
    // client follows BINANCE:BTCUSDT. Then an AAPL trade, then the blast on BINANCE:BTCUSDT.
    let script = [ServeRun.accepted, ServeRun.trade([("AAPL", "1.5", 1)])].joined(separator: "\n")
    let upstream = try FeedServer(
      script: try SessionScript(ndjson: script),
      options: .init(timeScale: 0, ending: .blast(count: count, then: .hold), awaitSubscriptions: 2))
    upstream.start()
    defer { upstream.stop() }
    let serve = try await ServeRun.start(
      ["--url", upstream.url.description, "-v"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "k"]))

    let stalled = try LinePeer(
      TestTools.python,
      [
        TestTools.supportScript("stalled_client.py"), String(serve.port),
        "BINANCE:BTCUSDT",
      ])
    #expect(await stalled.expect { $0 == "SUBSCRIBED" } != nil)
    #expect(await eventually { upstream.count(subscribe("BINANCE:BTCUSDT")) == 1 })
    let websocat = try serve.websocatToFile()
    websocat.send(subscribe("BINANCE:BTCUSDT"))
    #expect(await eventually { serve.process.stderrSoFar.contains("client 2 subscribes") })
    // The ticker prints into a file, as websocat does: through a pipe this test read, a release
    // build's serve outran the reader, the ticker's stdout filled, and serve dropped it as too
    // slow (1008), which is right for a client that falls 1,024 messages behind.
    let printed = FileManager.default.temporaryDirectory.appendingPathComponent("serve-slow-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: printed) }
    let client = try await TickerProcess.run(
      [
        "-c", #"exec "$0" "$@" > "$PRINTED""#, TickerProcess.executable.path, "--url", serve.url, "-s",
        "BINANCE:BTCUSDT,AAPL", "--every-trade", "--count", String(count + 1),
      ],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "anything", "PRINTED": printed]),
      timeout: 120, program: URL(fileURLWithPath: "/bin/sh"))
    let peakKB = serve.process.peakResidentKilobytes() ?? 0
    #expect(client.status == 0, "\(client.stderr)\n\(serve.process.stderrSoFar)")
    let lines = (try? String(contentsOfFile: printed, encoding: .utf8))?.split(separator: "\n") ?? []
    #expect(lines.count == count + 1, "\(serve.process.stderrSoFar)")
    #expect(lines.filter { $0.contains("\tBINANCE:BTCUSDT\t") }.count == count)
    // websocat got every trade too (one message may carry many).
    @Sendable func trades() -> Int {
      websocat.output.components(separatedBy: #""s":"BINANCE:BTCUSDT""#).count - 1
    }
    #expect(await eventually { trades() >= count }, "\(serve.process.stderrSoFar)")
    #expect(trades() == count)
    // The one that never read was dropped with 1008, and said so on stderr.
    #expect(
      await eventually { serve.process.stderrSoFar.contains("closed by the server: too slow") },
      "\(serve.process.stderrSoFar)")
    #expect(peakKB > 0 && peakKB < 80_000, "peak RSS \(peakKB) KiB")
    await stalled.finish()
    await websocat.finish()
    serve.process.signal(SIGINT)
    #expect(await serve.process.exit().status == 130)
  }
}

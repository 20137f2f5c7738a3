import Emulators
import Foundation
import Testing

@testable import Recording
@testable import TestSupport

/// The built binary under a fake service manager: `NOTIFY_SOCKET` is a datagram socket of the
/// test's, as systemd's is for a `Type=notify` unit, and the venue FeedServer's Finnhub emulation
/// on loopback. Time bounds are hang guards; the one figure about time is that pings are never
/// closer than the asked interval allows.
@Suite("ticker under systemd (NOTIFY_SOCKET, WATCHDOG_USEC, SIGHUP)")
struct SystemdNotifyTests {
  static let token = "sk-notify-SECRET-3"

  static func environment(_ receiver: NotifyReceiver, _ extra: [String: String] = [:]) -> [String: String] {
    TickerProcess.cleanEnvironment(
      ["FINNHUB_TOKEN": token, "NOTIFY_SOCKET": receiver.name].merging(extra) { $1 })
  }

  static func script() throws -> SessionScript {
    try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
  }

  static func texts(_ receiver: NotifyReceiver) -> [String] { receiver.collected.map(\.text) }

  static func pings(_ receiver: NotifyReceiver) -> [NotifyReceiver.Arrival] {
    receiver.collected.filter { $0.text == "WATCHDOG=1" }
  }

  @Test(
    "READY=1 once subscribed; WATCHDOG=1 at the asked pace while prices flow, none while the server is silent; STOPPING=1 on SIGTERM"
  )
  func watchdog() async throws {
    // Prices flow until the test drops the connection; every later connection is a server that
    // sends nothing (it holds the connection and answers nothing).
    let server = try FeedServer(
      script: Self.script(),
      options: .init(
        timeScale: 0,
        plans: [
          .init(ending: .synthetic(seed: 7, interval: 0.05)),
          .init(script: SessionScript(steps: []), ending: .hold),
        ], acceptAnySymbol: true))
    server.start()
    defer { server.stop() }
    let receiver = try NotifyReceiver.inTemporaryDirectory()
    receiver.startCollecting()
    defer { receiver.stopCollecting() }
    let ticker = try RunningTicker(
      [
        // Prices pend in the stage (nothing is printed: nobody reads stdout meanwhile).
        "--url", "ws://127.0.0.1:\(server.port)/", "--debounce", "600", "--silence-timeout", "1.5",
        "--ping-interval", "0", "--connect-timeout", "5", "--max-backoff", "0.2",
      ], environment: Self.environment(receiver, ["WATCHDOG_USEC": "500000"]))

    // Alive: ready once, then pings every 0.25 s (half of WATCHDOG_USEC).
    #expect(await eventually { Self.pings(receiver).count >= 6 })
    let texts = Self.texts(receiver)
    #expect(texts.first == "READY=1\nSTATUS=Finnhub: 1 symbol", "\(texts)")
    #expect(texts.filter { $0.hasPrefix("READY=1") }.count == 1)
    let pings = Self.pings(receiver)
    let span = pings[0].at.duration(to: pings[pings.count - 1].at)
    // Sent at least 0.25 s apart: never more of them than the span allows (half a second spared
    // for this reader's own lateness at either end).
    let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
    #expect(Double(pings.count - 1) * 0.25 <= seconds + 0.5, "\(pings.count) pings in \(span)")

    // Hung: the server goes silent; once the ticker gave the connection up as silent, no ping
    // (one may have been on its way), through two more connections that stay silent: connected
    // again, but nothing has come for longer than the silence limit.
    server.dropConnections()
    #expect(await eventually { ticker.stderrSoFar.contains("no message for 1.5 s") })
    let stderrThen = ticker.stderrSoFar
    let pingedThen = Self.pings(receiver).count
    #expect(
      await eventually {
        Self.occurrences("no message for 1.5 s", in: ticker.stderrSoFar)
          >= Self.occurrences("no message for 1.5 s", in: stderrThen) + 2
      })
    #expect(Self.pings(receiver).count <= pingedThen + 1, "\(Self.texts(receiver))")
    #expect(Self.texts(receiver).contains { $0.hasPrefix("STATUS=Finnhub: reconnecting (attempt") })

    ticker.signal(SIGTERM)
    let (status, stderr) = await ticker.exit()
    #expect(status == 143, "\(stderr)")
    #expect(await eventually { Self.texts(receiver).last == "STOPPING=1" })
    #expect(!Self.texts(receiver).contains { $0.contains(Self.token) })
  }

  @Test(
    "SIGHUP rereads the config file: RELOADING=1, the new subscription, READY=1; a broken file keeps the subscription"
  )
  func reload() async throws {
    let server = try FeedServer(script: Self.script(), options: .init(timeScale: 0, ending: .hold))
    server.start()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    let config = directory.path + "/config.json"
    try #"{"symbols": ["BINANCE:BTCUSDT"]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let receiver = try NotifyReceiver.inTemporaryDirectory()
    receiver.startCollecting()
    defer { receiver.stopCollecting() }
    let ticker = try RunningTicker(
      ["--config", config, "--url", "ws://127.0.0.1:\(server.port)/"], environment: Self.environment(receiver)
    )
    #expect(await eventually { Self.texts(receiver).contains { $0.hasPrefix("READY=1") } })

    try #"{"symbols": ["BINANCE:BTCUSDT", "AAPL"]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let signalled = SystemdNotifyTests.monotonicMicroseconds()
    ticker.signal(SIGHUP)
    #expect(
      await eventually { server.record.clientMessages.contains(#"{"type":"subscribe","symbol":"AAPL"}"#) })
    #expect(await eventually { Self.texts(receiver).filter { $0.hasPrefix("READY=1") }.count == 2 })
    let afterReady = Array(Self.texts(receiver).drop { !$0.hasPrefix("READY=1") }.dropFirst())
    let reloading = try #require(afterReady.first { $0.hasPrefix("RELOADING=1") })
    // RELOADING=1 before the second READY=1, stamped with CLOCK_MONOTONIC after the signal was sent.
    #expect(afterReady.firstIndex(of: reloading)! < afterReady.firstIndex { $0.hasPrefix("READY=1") }!)
    let stamp = try #require(UInt64(reloading.dropFirst("RELOADING=1\nMONOTONIC_USEC=".count)))
    #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
    #expect(stamp >= signalled && stamp <= SystemdNotifyTests.monotonicMicroseconds())
    #expect(await eventually { ticker.stderrSoFar.contains("subscribed to AAPL") })

    // A file that no longer parses: said, the subscription kept, ready again.
    try #"{"symbols": ["#.write(toFile: config, atomically: true, encoding: .utf8)
    ticker.signal(SIGHUP)
    #expect(
      await eventually { ticker.stderrSoFar.contains("ticker: error: SIGHUP: cannot reload \(config)") })
    #expect(await eventually { Self.texts(receiver).filter { $0.hasPrefix("READY=1") }.count == 3 })
    #expect(Self.texts(receiver).filter { $0.hasPrefix("RELOADING=1") }.count == 2)
    #expect(!server.record.clientMessages.contains { $0.contains("unsubscribe") })
    #expect(ticker.termination == nil)

    ticker.signal(SIGTERM)
    let (status, stderr) = await ticker.exit()
    #expect(status == 143, "\(stderr)")
    #expect(await eventually { Self.texts(receiver).last == "STOPPING=1" })
  }

  @Test(
    "SIGHUP without a config file is said and ignored; with symbols on the command line it changes nothing")
  func hangupIgnored() async throws {
    let server = try FeedServer(script: Self.script(), options: .init(timeScale: 0, ending: .hold))
    server.start()
    defer { server.stop() }
    let home = try TemporaryDirectory()
    var environment = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": Self.token])
    environment["HOME"] = home.path
    let ticker = try RunningTicker(
      ["--url", "ws://127.0.0.1:\(server.port)/", "--every-trade"], environment: environment)
    #expect(await !ticker.lines(1).isEmpty, "\(ticker.stderrSoFar)")
    ticker.signal(SIGHUP)
    #expect(
      await eventually { ticker.stderrSoFar.contains("ticker: SIGHUP ignored: there is no config file") })
    #expect(ticker.termination == nil)
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")

    // Symbols on the command line outrank the file: said once, however many reloads.
    let config = home.path + "/config.json"
    try #"{"symbols": ["AAPL"]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let fixed = try RunningTicker(
      ["--config", config, "--symbol", "BINANCE:BTCUSDT", "--url", "ws://127.0.0.1:\(server.port)/"],
      environment: environment)
    #expect(await eventually { server.record.connections == 2 })
    fixed.signal(SIGHUP)
    #expect(await eventually { fixed.stderrSoFar.contains("outranks the config file") })
    fixed.signal(SIGHUP)
    fixed.signal(SIGINT)
    let (_, fixedStderr) = await fixed.exit()
    #expect(Self.occurrences("outranks the config file", in: fixedStderr) == 1, "\(fixedStderr)")
    #expect(!server.record.clientMessages.contains(#"{"type":"subscribe","symbol":"AAPL"}"#))
  }

  @Test("serve: READY=1 once listening, STOPPING=1 on SIGTERM")
  func serve() async throws {
    let receiver = try NotifyReceiver.inTemporaryDirectory()
    receiver.startCollecting()
    defer { receiver.stopCollecting() }
    let ticker = try RunningTicker(
      ["serve", "--demo", "--port", "0"], environment: Self.environment(receiver))
    let address = try #require(await ticker.lines(1).first)
    #expect(await eventually { !Self.texts(receiver).isEmpty })
    #expect(Self.texts(receiver).first == "READY=1\nSTATUS=serving on \(address)")
    ticker.signal(SIGTERM)
    _ = await ticker.exit()
    #expect(await eventually { Self.texts(receiver).last == "STOPPING=1" })
  }

  static func occurrences(_ text: String, in haystack: String) -> Int {
    haystack.components(separatedBy: text).count - 1
  }

  static func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
  }
}

/// A directory of the test's own, removed with everything in it when the value goes.
final class TemporaryDirectory: Sendable {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent("ticker-systemd-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

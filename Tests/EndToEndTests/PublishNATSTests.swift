import Foundation
import TestSupport
import Testing

/// `--publish nats://…` against a real `nats-server`, checked by an independent client (nats-py):
/// every printed price arrives once, on its subject, with the printed line as its payload, in
/// order; a server that goes away and comes back costs no more than the documented buffer while
/// the ticker keeps printing; a server that is not there, or is hostile, never stops the ticker.
/// Serialized: each test runs a ticker, a nats-server and Python; on 2 cores, ten of each at once
/// would starve the rest of the suite's timing-sensitive tests.
@Suite(
  "Publishing to NATS", .serialized,
  .requires(.natsServer, .natsPy),
  .timeLimit(.minutes(3)))
struct PublishNATSTests {
  static let environment = TickerProcess.cleanEnvironment()

  /// The subjects, written out by hand from docs/nats.md's escaping rules (not computed by the
  /// code under test).
  static let subjects = [
    "BINANCE:BTCUSDT": "ticker.finnhub.BINANCE:BTCUSDT",
    "IC MARKETS:1": "ticker.finnhub.IC_20MARKETS:1",
    "BRK.B": "ticker.finnhub.BRK_2EB",
  ]

  /// The `symbol` of a printed JSON line.
  static func symbol(of line: String) -> String? {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return object["symbol"] as? String
  }

  @Test("every printed price arrives once, on its subject, payload the printed line, in order")
  func everyPrice() async throws {
    let server = try await NATSServerProcess.start()
    let subscriber = try await NATSPeer.subscriber(server.url)
    let result = try await TickerProcess.run(
      [
        "--demo", "--every-trade", "--format", "json", "--count", "40", "-s",
        "BINANCE:BTCUSDT,IC MARKETS:1,BRK.B",
        "--publish", server.url,
      ], environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let printed = result.stdoutLines
    #expect(printed.count == 40)
    let all = await eventuallyValue { () -> [String]? in
      let messages = subscriber.all.filter { $0.hasPrefix("MSG ") }
      return messages.count >= 40 ? messages : nil
    }
    await subscriber.finish()
    let received = try #require(all).compactMap(NATSPeer.message)
    #expect(received.count == 40, "received \(received.count) messages")
    #expect(received.map(\.payload) == printed)
    for message in received {
      let symbol = try #require(Self.symbol(of: message.payload), "\(message.payload)")
      #expect(message.subject == Self.subjects[symbol], "\(symbol) on \(message.subject)")
    }
    #expect(
      Set(received.map(\.subject)).count == 3, "all three symbols traded: \(Set(received.map(\.subject)))")
    #expect(!result.stderr.contains("warning"), "\(result.stderr)")
  }

  @Test(
    "NATS stopped and started again mid-run: the ticker keeps printing, loses no more than --publish-buffer")
  func restart() async throws {
    let server = try await NATSServerProcess.start(jetStream: true)
    #expect(try await NATSPeer.run(["stream-add", server.url, "TICKER", "ticker.>"]) == ["OK"])
    let ticker = try RunningTicker(
      ["--demo", "--every-trade", "--format", "json", "--publish-buffer", "5", "--publish", server.url],
      environment: Self.environment)
    // Everything printed before the server stops reaches it.
    let before = await ticker.lines(10).count
    #expect(await NATSPeer.eventuallyCount(server.url, stream: "TICKER", atLeast: before))

    await server.stopped()
    let stoppedAt = Self.milliseconds()
    // The ticker keeps printing while NATS is down: 20 trades received after the stop (the demo
    // trades ~7 a second; the pipe may still hold older lines, hence the receive times).
    #expect(await Self.read(ticker, atLeast: 20, receivedAfter: stoppedAt))
    try server.start()
    let again = await eventually { ticker.stderrSoFar.contains("publishing to \(server.url) again") }
    #expect(again, "\(ticker.stderrSoFar)")
    // Every trade received from here on is published on the new connection.
    let reconnected = Self.milliseconds()
    #expect(await Self.read(ticker, atLeast: 10, receivedAfter: reconnected))
    let last = ticker.waitForLines(0).count
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let printed = ticker.allLines()
    #expect(printed.count >= last)

    let messages = try await NATSPeer.dump(server.url, stream: "TICKER")
    let stored = Self.storedIndices(messages.map(\.payload), in: printed)
    #expect(Set(messages.map(\.subject)) == ["ticker.finnhub.BINANCE:BTCUSDT"])
    // Everything printed before the stop is there, and everything received after the reconnect.
    #expect(Array(stored.prefix(before)) == Array(0..<before))
    let received = printed.map { Self.receivedTime(of: $0) ?? 0 }
    let late = Set(printed.indices.filter { received[$0] > reconnected })
    #expect(late.count >= 10)
    #expect(
      late.isSubset(of: Set(stored)), "missing after the reconnect: \(late.subtracting(stored).sorted())")
    // Of the prices received while NATS was away, the newest --publish-buffer (5) were kept, and
    // the rest dropped (with a warning).
    let away = printed.indices.filter { received[$0] > stoppedAt && received[$0] < reconnected }
    let kept = away.filter { Set(stored).contains($0) }
    #expect(away.count >= 20)
    #expect(
      kept.count >= 5, "only \(kept.count) of the \(away.count) prices printed while NATS was down arrived")
    #expect(kept.count < away.count, "nothing was dropped: the buffer is not 5")
    #expect(stderr.contains("lost the NATS connection to \(server.url)"), "\(stderr)")
    #expect(stderr.contains("prices were dropped meanwhile"), "\(stderr)")
  }

  @Test("NATS not there at the start: the ticker prints, warns once, and delivers the backlog when it comes")
  func lateServer() async throws {
    // A stream made beforehand (JetStream keeps it in its store), so that it captures the very
    // first message the ticker publishes.
    let server = try await NATSServerProcess.start(jetStream: true)
    let url = server.url
    #expect(try await NATSPeer.run(["stream-add", url, "TICKER", "ticker.>"]) == ["OK"])
    await server.stopped()
    let ticker = try RunningTicker(
      ["--demo", "--every-trade", "--format", "json", "--publish", url], environment: Self.environment)
    let early = await ticker.lines(15).count
    let warned = ticker.stderrSoFar
    #expect(
      warned.contains("cannot publish to \(url): cannot connect to 127.0.0.1 port \(server.port)"),
      "\(warned)")
    #expect(warned.contains("prices keep printing"), "\(warned)")
    // Rate-limited: one warning, however many attempts.
    #expect(warned.components(separatedBy: "cannot publish").count == 2, "\(warned)")
    try server.start()
    let back = await eventually { ticker.stderrSoFar.contains("publishing to \(url) again") }
    #expect(back, "\(ticker.stderrSoFar)")
    let total = await ticker.lines(early + 10).count
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    #expect(status == 130, "\(stderr)")
    let printed = ticker.allLines()
    #expect(printed.count >= total)
    // The backlog was held (far below the 10,000 buffer) and sent once NATS came: every line.
    let stored = try await NATSPeer.dump(url, stream: "TICKER").map(\.payload)
    #expect(stored.count == printed.count, "stored \(stored.count) of \(printed.count) printed lines")
    #expect(stored == printed)
    #expect(stderr.contains("no price was dropped"), "\(stderr)")
  }

  /// Reads the ticker's stdout until `count` of its lines were received after `time` (false if
  /// stdout ended first).
  static func read(_ ticker: RunningTicker, atLeast count: Int, receivedAfter time: Int64) async -> Bool {
    var seen = ticker.waitForLines(0).count
    for _ in 0..<5000 {
      let lines = await ticker.lines(seen + 1)
      if lines.count <= seen { return false }
      seen = lines.count
      if lines.filter({ (receivedTime(of: $0) ?? 0) > time }).count >= count { return true }
    }
    return false
  }

  /// Wall-clock milliseconds, as the JSON lines' `rt`.
  static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  /// The `rt` (received, epoch ms) of a printed JSON line.
  static func receivedTime(of line: String) -> Int64? {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return (object["rt"] as? NSNumber)?.int64Value
  }

  /// Where each stored payload is among the printed lines: each found after the one before
  /// (stored ⊆ printed, in order, none twice).
  static func storedIndices(_ payloads: [String], in printed: [String]) -> [Int] {
    var indices: [Int] = []
    var next = 0
    for payload in payloads {
      guard let found = printed[next...].firstIndex(of: payload) else {
        Issue.record("stored, but not printed in this order (or stored twice): \(payload)")
        break
      }
      indices.append(found)
      next = found + 1
    }
    return indices
  }

  @Test("with NATS never there, --count still ends the run at once, and the summary says what was not sent")
  func neverThere() async throws {
    let server = try await NATSServerProcess.start()
    let url = server.url
    await server.stopped()
    let result = try await TickerProcess.run(
      ["--demo", "--every-trade", "--count", "12", "--publish", url], environment: Self.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 12)
    #expect(
      result.stderr.contains("12 prices were not published to \(url): 12 still waiting at exit"),
      "\(result.stderr)")
  }

  @Test(
    "a server that refuses the credentials: a clear warning, the password never shown, prices keep printing")
  func refusedCredentials() async throws {
    let server = try await NATSServerProcess.start(arguments: ["--user", "alice", "--pass", "right-password"])
    let secret = "wrong-pa55word"
    let environment = TickerProcess.cleanEnvironment([
      "TICKER_PUBLISH": "nats://alice:\(secret)@127.0.0.1:\(server.port)"
    ])
    let result = try await TickerProcess.run(["--demo", "--count", "5", "-v"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 5)
    #expect(
      result.stderr.contains("the server refused the credentials: 'Authorization Violation'"),
      "\(result.stderr)")
    #expect(result.stderr.contains("nats://***@127.0.0.1:\(server.port)"), "\(result.stderr)")
    #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
  }

  @Test("a permissions violation is warned about (rate-limited) and the connection stays")
  func permissionsViolation() async throws {
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-nats-\(UUID()).conf")
    try """
    authorization { users = [
      { user: "pub", password: "pw", permissions: { publish: "ticker.finnhub.AAPL" } }
      { user: "sub", password: "pw" }
    ] }
    """.write(to: config, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: config) }
    let server = try await NATSServerProcess.start(arguments: ["-c", config.path])
    let subscriber = try await NATSPeer.subscriber("nats://sub:pw@127.0.0.1:\(server.port)")
    let environment = TickerProcess.cleanEnvironment([
      "TICKER_PUBLISH": "nats://pub:pw@127.0.0.1:\(server.port)"
    ])
    let result = try await TickerProcess.run(
      ["--demo", "--every-trade", "--count", "30", "--format", "json", "-s", "BINANCE:BTCUSDT,AAPL"],
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let aapl = result.stdoutLines.filter { $0.contains(#""symbol":"AAPL""#) }
    #expect(!aapl.isEmpty)
    let received = await eventuallyValue { () -> [String]? in
      let messages = subscriber.all.compactMap(NATSPeer.message).map(\.payload)
      return messages.count >= aapl.count ? messages : nil
    }
    await subscriber.finish()
    // AAPL's prices went through on the same connection as the refused ones.
    #expect(received == aapl)
    let warnings = result.stderr.components(separatedBy: "answered 'Permissions Violation for Publish to")
    #expect(warnings.count == 2, "one warning (rate-limited): \(result.stderr)")
    #expect(!result.stderr.contains("lost the NATS connection"), "\(result.stderr)")
  }

  @Test("the right credentials from TICKER_PUBLISH are accepted")
  func acceptedCredentials() async throws {
    let server = try await NATSServerProcess.start(arguments: ["--user", "alice", "--pass", "s3cret"])
    let subscriber = try await NATSPeer.subscriber("nats://alice:s3cret@127.0.0.1:\(server.port)")
    let environment = TickerProcess.cleanEnvironment([
      "TICKER_PUBLISH": "nats://alice:s3cret@127.0.0.1:\(server.port)"
    ])
    let result = try await TickerProcess.run(
      ["--demo", "--count", "5", "--format", "json"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let received = await eventuallyValue { () -> [String]? in
      let messages = subscriber.all.compactMap(NATSPeer.message).map(\.payload)
      return messages.count >= 5 ? messages : nil
    }
    await subscriber.finish()
    #expect(received == result.stdoutLines)
  }
}

/// Fake NATS servers that misbehave (`Tests/Support/nats_peer.py`), and the command line.
@Suite(
  "Publishing to hostile NATS servers", .serialized,
  .requires(.natsPy))
struct PublishHostileNATSTests {
  @Test("a server sending an endless INFO line: bounded memory, a clear warning, prices keep printing")
  func giantInfo() async throws {
    let (peer, port) = try await LinePeer.python("nats_peer.py", ["giant-info"])
    let ticker = try RunningTicker(
      ["--demo", "--every-trade", "--publish", "nats://127.0.0.1:\(port)"],
      environment: PublishNATSTests.environment)
    let warned = await eventually { ticker.stderrSoFar.contains("sent a line longer than 65536 bytes") }
    #expect(warned, "\(ticker.stderrSoFar)")
    // Several reconnects, each offered up to 256 MiB.
    let lines = await ticker.lines(30).count
    #expect(lines >= 30)
    let peak = ticker.peakResidentKilobytes() ?? 0
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    await peer.finish()
    #expect(status == 130, "\(stderr)")
    #expect(peak > 0 && peak < 40_000, "peak RSS \(peak) KiB")
  }

  @Test("a server that never answers: the handshake times out with a warning; prices keep printing")
  func silentServer() async throws {
    let (peer, port) = try await LinePeer.python("nats_peer.py", ["silent"])
    let ticker = try RunningTicker(
      ["--demo", "--every-trade", "--publish", "nats://127.0.0.1:\(port)"],
      environment: PublishNATSTests.environment)
    let warned = await eventually { ticker.stderrSoFar.contains("no answer to CONNECT within 5 s") }
    #expect(warned, "\(ticker.stderrSoFar)")
    #expect(await ticker.lines(10).count >= 10)
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit(within: 15)
    await peer.finish()
    #expect(status == 130, "\(stderr)")
  }

  @Test("ending while the handshake hangs: the run ends without waiting for it, saying what was not sent")
  func endDuringHandshake() async throws {
    let (peer, port) = try await LinePeer.python("nats_peer.py", ["silent"])
    let result = try await TickerProcess.run(
      ["--demo", "--every-trade", "--count", "3", "--publish", "nats://127.0.0.1:\(port)"],
      environment: PublishNATSTests.environment)
    await peer.finish()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines.count == 3)
    #expect(
      result.stderr.contains(
        "3 prices were not published to nats://127.0.0.1:\(port): 3 still waiting at exit"),
      "\(result.stderr)")
  }

  @Test("a server that stops answering after the handshake: two unanswered pings end the connection, retried")
  func stalledServer() async throws {
    let (peer, port) = try await LinePeer.python("nats_peer.py", ["stall"])
    let ticker = try RunningTicker(
      ["--demo", "--every-trade", "--publish", "nats://127.0.0.1:\(port)", "-v"],
      environment: PublishNATSTests.environment)
    #expect(await peer.expect { $0 == "STALLED" } != nil)
    // PINGs go out every 5 s; the third falls due with two unanswered.
    let dead = await eventually(within: 40) { ticker.stderrSoFar.contains("2 pings went unanswered") }
    #expect(dead, "\(ticker.stderrSoFar)")
    // Reconnected: the fake server completes a second handshake.
    #expect(await peer.expect { $0 == "STALLED" } != nil)
    #expect(await ticker.lines(20).count >= 20)
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit(within: 15)
    await peer.finish()
    #expect(status == 130, "\(stderr)")
  }

  @Test(
    "an unusable --publish value is a usage error (64) that names the problem",
    arguments: [
      (["--publish", "http://127.0.0.1:4222"], "the URL must start with nats://"),
      (["--publish", "nats://127.0.0.1:70000"], #"invalid port "70000" (1 to 65535)"#),
      (["--publish", "nats://127.0.0.1:4222/x"], "a NATS URL has no path"),
      (["--publish", "nats://bob:hunter2@127.0.0.1:4222"], "shows the secret to other users"),
    ])
  func usage(arguments: [String], message: String) async throws {
    let result = try await TickerProcess.run(
      ["--demo"] + arguments, environment: PublishNATSTests.environment)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("hunter2"))
    #expect(result.stdout.isEmpty)
  }
}

import Foundation
import TestSupport
import Testing

@testable import NATS
@testable import Transport

/// `--source nats://…` against a real `nats-server`: consumers print what a publisher printed,
/// byte for byte; a consumer outlives a restart of the server without printing anything twice;
/// a server that is not there is said so. Serialized, as the publishing suite is.
@Suite(
  "NATS as a source", .serialized,
  .requires(.natsServer, .pythonWebsockets),
  .timeLimit(.minutes(3)))
struct NATSSourceTests {
  static let environment = TickerProcess.cleanEnvironment()

  /// A consumer of `server`, verbose so that the test can see it subscribed.
  static func consumer(
    _ server: NATSServerProcess, _ arguments: [String], environment: [String: String] = Self.environment
  ) async throws -> RunningTicker {
    let ticker = try RunningTicker(["--source", server.url, "-v"] + arguments, environment: environment)
    // Said once the server has the subscription (the PONG after the SUB came back).
    let subscribed = await eventually { ticker.stderrSoFar.contains("subscribed to") }
    #expect(subscribed, "\(ticker.stderrSoFar)")
    return ticker
  }

  @Test("two consumers print exactly the publisher's lines: text, and csv of several venues")
  func consumersPrintThePublishersLines() async throws {
    // With JetStream (no stream): a server without it is the warning of a test of its own.
    let server = try await NATSServerProcess.start(jetStream: true)
    for flags in [
      ["--provider", "binance", "-s", "BTCUSDT,ETHUSDT", "--count", "12"],
      ["-s", "binance/BTCUSDT", "-s", "coinbase/BTC-USD", "--format", "csv", "--count", "12"],
    ] {
      let first = try await Self.consumer(server, flags)
      let second = try await Self.consumer(server, flags)
      let published = try await TickerProcess.run(
        ["--demo", "--publish", server.url] + flags, environment: Self.environment)
      #expect(published.status == 0, "\(published.stderr)")
      #expect(published.stdoutLines.count >= 12, "\(published.stdoutLines)")
      for consumer in [first, second] {
        let (status, stderr) = await consumer.exit()
        #expect(status == 0, "\(stderr)")
        let printed = consumer.allLines()
        if flags.contains("csv") {
          // Each venue comes on its own connection: the interleaving of two venues may differ,
          // each venue's lines may not.
          for venue in ["binance", "coinbase"] {
            #expect(
              printed.filter { $0.contains(",\(venue),") }
                == published.stdoutLines.filter { $0.contains(",\(venue),") })
          }
          #expect(printed.first == published.stdoutLines.first, "the csv header")
          #expect(printed.count == published.stdoutLines.count)
        } else {
          #expect(printed == published.stdoutLines)
        }
        #expect(!stderr.contains("warning"), "\(stderr)")
      }
    }
  }

  @Test("a consumer outlives a restart of nats-server, says so, and prints nothing twice")
  func serverRestart() async throws {
    // With JetStream: each reconnect starts from the kept last price, which must not repeat one
    // printed before.
    let server = try await NATSServerProcess.start(jetStream: true)
    let consumer = try await Self.consumer(
      server, ["--provider", "binance", "-s", "BTCUSDT", "--format", "json", "--max-backoff", "0.5"])
    let publisher = try RunningTicker(
      [
        "--demo", "--provider", "binance", "-s", "BTCUSDT", "--every-trade", "--format", "json", "--publish",
        server.url,
      ],
      environment: Self.environment)
    let before = await consumer.lines(5)
    #expect(before.count >= 5)
    await server.stopped()
    #expect(
      await eventually { consumer.stderrSoFar.contains("reconnect attempt") }, "\(consumer.stderrSoFar)")
    try server.start()
    // Once both are back, prices flow again.
    let again = await consumer.lines(before.count + 5, within: 60)
    #expect(again.count >= before.count + 5, "\(consumer.stderrSoFar)")
    publisher.signal(SIGINT)
    consumer.signal(SIGINT)
    let (status, stderr) = await consumer.exit()
    _ = await publisher.exit()
    #expect(status == 130, "\(stderr)")
    let consumed = consumer.allLines()
    let published = publisher.allLines()
    // Each line once, in the publisher's order (the ones published while NATS was down never
    // reach anyone).
    #expect(Set(consumed).count == consumed.count, "a line printed twice")
    let positions = consumed.compactMap { published.firstIndex(of: $0) }
    #expect(positions.count == consumed.count, "a line the publisher never printed")
    #expect(positions == positions.sorted())
  }

  @Test("no server there: said on stderr, retried, and given up on with exit 75, as a venue is")
  func unreachable() async throws {
    let server = try await NATSServerProcess.start()
    let url = server.url
    await server.stopped()
    let result = try await TickerProcess.run(
      [
        "--source", url, "--provider", "binance", "-s", "BTCUSDT", "--max-retries", "1", "--max-backoff",
        "0.1",
      ],
      environment: Self.environment)
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("gave up after 1 reconnect attempt"), "\(result.stderr)")
    #expect(result.stderr.contains("cannot connect to 127.0.0.1 port \(server.port)"), "\(result.stderr)")
  }

  @Test("credentials in --source on the command line are refused; from the environment they are never shown")
  func credentials() async throws {
    let refused = try await TickerProcess.run(
      ["--source", "nats://me:s3cret-pass@127.0.0.1:1", "-s", "BTCUSDT", "--provider", "binance"],
      environment: Self.environment)
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("TICKER_SOURCE"), "\(refused.stderr)")
    #expect(!refused.stderr.contains("s3cret-pass"))
    let server = try await NATSServerProcess.start(arguments: ["--user", "me", "--pass", "s3cret-pass"])
    var environment = Self.environment
    environment["TICKER_SOURCE"] = "nats://me:wrong-pass@127.0.0.1:\(server.port)"
    let wrong = try await TickerProcess.run(
      ["--provider", "binance", "-s", "BTCUSDT", "-v"], environment: environment)
    #expect(wrong.status == 69, "\(wrong.stderr)")
    #expect(wrong.stderr.contains("refused the credentials"), "\(wrong.stderr)")
    #expect(!wrong.stderr.contains("wrong-pass"), "\(wrong.stderr)")
    environment["TICKER_SOURCE"] = "nats://me:s3cret-pass@127.0.0.1:\(server.port)"
    let consumer = try RunningTicker(
      ["--provider", "binance", "-s", "BTCUSDT", "-v", "--count", "3"], environment: environment)
    #expect(await eventually { consumer.stderrSoFar.contains("subscribed to") }, "\(consumer.stderrSoFar)")
    var publishing = Self.environment
    publishing["TICKER_PUBLISH"] = environment["TICKER_SOURCE"]
    let published = try await TickerProcess.run(
      ["--demo", "--provider", "binance", "-s", "BTCUSDT", "--count", "3"], environment: publishing)
    #expect(published.status == 0, "\(published.stderr)")
    let (status, stderr) = await consumer.exit()
    #expect(status == 0, "\(stderr)")
    #expect(consumer.allLines() == published.stdoutLines)
    #expect(!stderr.contains("s3cret-pass"), "\(stderr)")
  }

  @Test(
    "ticker serve --source: a Python client gets the trades another ticker published, qualified venues too")
  func serveFromTheBus() async throws {
    let server = try await NATSServerProcess.start()
    let serve = try await ServeRun.start(["--source", server.url, "--provider", "binance", "-v"])
    let (client, first) = try await serve.python()
    #expect(first == "OPEN")
    client.send(subscribe("BTCUSDT"))
    client.send(subscribe("coinbase/BTC-USD"))
    // Subscribed upstream on the bus: both venues' subjects.
    #expect(
      await eventually {
        serve.process.stderrSoFar.contains("subscribed to BTCUSDT")
          && serve.process.stderrSoFar.contains("subscribed to BTC-USD")
      }, "\(serve.process.stderrSoFar)")
    let published = try await TickerProcess.run(
      [
        "--demo", "-s", "binance/BTCUSDT", "-s", "coinbase/BTC-USD", "--every-trade", "--format", "json",
        "--count", "20", "--publish", server.url,
      ], environment: Self.environment)
    #expect(published.status == 0, "\(published.stderr)")
    let binance = await client.expect { $0.hasPrefix("TEXT ") && $0.contains(#""s":"BTCUSDT""#) }
    let coinbase = await client.expect { $0.hasPrefix("TEXT ") && $0.contains(#""s":"coinbase/BTC-USD""#) }
    #expect(binance != nil && coinbase != nil, "\(client.all)")
    // The first Binance trade the client got is one the publisher printed, its price as printed.
    let firstBinance = published.stdoutLines.first { $0.contains(#""provider":"binance""#) } ?? ""
    let price =
      firstBinance.split(separator: ",").first { $0.hasPrefix(#""price":"#) }?.dropFirst(8) ?? "none"
    #expect(binance?.contains(#""p":\#(price),"#) == true, "\(binance ?? "") vs \(firstBinance)")
    await client.finish()
    serve.process.signal(SIGINT)
    let (status, stderr) = await serve.process.exit()
    #expect(status == 130, "\(stderr)")
  }

  @Test("a consumer started late begins with each symbol's last price from JetStream, then the live ones")
  func lateConsumerStartsFull() async throws {
    let server = try await NATSServerProcess.start(jetStream: true)
    let symbols = [
      "--provider", "binance", "-s", "BTCUSDT,ETHUSDT,SOLUSDT", "--every-trade", "--format", "json",
    ]
    let first = try await TickerProcess.run(
      ["--demo", "--publish", server.url, "--publish-stream", "TICKER", "--count", "15", "-v"] + symbols,
      environment: Self.environment)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stderr.contains("JetStream stream TICKER keeps the last price of each subject"), "\(first.stderr)"
    )
    // Each symbol's last line of the first run.
    var last: [String: String] = [:]
    for line in first.stdoutLines {
      if let symbol = PublishNATSTests.symbol(of: line) { last[symbol] = line }
    }
    #expect(last.count == 3, "\(first.stdoutLines)")
    // The publisher's filter is its own: a consumer given one is told it does nothing.
    let consumer = try await Self.consumer(
      server, symbols.filter { $0 != "--every-trade" } + ["--count", "\(3 + 15)"])
    // At once: the three last prices, nothing else (no publisher is running).
    let seeded = await consumer.lines(3)
    #expect(Set(seeded) == Set(last.values), "\(seeded)")
    let second = try await TickerProcess.run(
      ["--demo", "--publish", server.url, "--publish-stream", "TICKER", "--count", "15"] + symbols,
      environment: Self.environment)
    #expect(second.status == 0, "\(second.stderr)")
    let (status, stderr) = await consumer.exit()
    #expect(status == 0, "\(stderr)")
    // Then exactly the live run's lines: no gap, no duplicate at the seam.
    #expect(Array(consumer.allLines().dropFirst(3)) == second.stdoutLines)
    #expect(!stderr.contains("warning"), "\(stderr)")
  }

  @Test("a server without JetStream: the publisher and the consumer each say so once, and go on live")
  func noJetStream() async throws {
    let server = try await NATSServerProcess.start()
    let consumer = try await Self.consumer(
      server, ["--provider", "binance", "-s", "BTCUSDT,ETHUSDT", "--every-trade", "--count", "10"])
    let published = try await TickerProcess.run(
      [
        "--demo", "--provider", "binance", "-s", "BTCUSDT,ETHUSDT", "--every-trade", "--count", "10",
        "--publish",
        server.url, "--publish-stream", "TICKER",
      ], environment: Self.environment)
    #expect(published.status == 0, "\(published.stderr)")
    #expect(published.stderr.components(separatedBy: "has no JetStream").count == 2, "\(published.stderr)")
    let (status, stderr) = await consumer.exit()
    #expect(status == 0, "\(stderr)")
    #expect(consumer.allLines() == published.stdoutLines)
    #expect(stderr.components(separatedBy: "has no JetStream").count == 2, "\(stderr)")
  }

  @Test("tls:// with the test CA and a user and password: publisher and consumer agree; no CA, no connection")
  func tlsWithPassword() async throws {
    let ca = try TestCA.shared()
    let server = try await NATSServerProcess.start(arguments: [
      "--tls", "--tlscert", ca.serverCertificate, "--tlskey", ca.serverKey, "--user", "desk", "--pass",
      "tls-s3cret",
    ])
    var consuming = Self.environment
    consuming["TICKER_SOURCE"] = "tls://desk:tls-s3cret@127.0.0.1:\(server.port)"
    let symbols = ["--provider", "binance", "-s", "BTCUSDT", "--every-trade", "--count", "8"]
    // Not trusting the test CA: refused at the handshake, said, no retry.
    let untrusted = try await TickerProcess.run(symbols, environment: consuming)
    #expect(untrusted.status == 76, "\(untrusted.stderr)")
    #expect(untrusted.stderr.contains("failed verification"), "\(untrusted.stderr)")
    #expect(!untrusted.stderr.contains("tls-s3cret"))
    let consumer = try RunningTicker(symbols + ["--cacert", ca.caFile, "-v"], environment: consuming)
    #expect(await eventually { consumer.stderrSoFar.contains("subscribed to") }, "\(consumer.stderrSoFar)")
    // The publisher names nats://: the server requires TLS, so it gets TLS (and checks the
    // certificate) all the same.
    var publishing = Self.environment
    publishing["TICKER_PUBLISH"] = "nats://desk:tls-s3cret@127.0.0.1:\(server.port)"
    let published = try await TickerProcess.run(
      ["--demo", "--cacert", ca.caFile, "-v"] + symbols, environment: publishing)
    #expect(published.status == 0, "\(published.stderr)")
    #expect(!published.stderr.contains("warning"), "\(published.stderr)")
    let (status, stderr) = await consumer.exit()
    #expect(status == 0, "\(stderr)")
    #expect(consumer.allLines() == published.stdoutLines)
    #expect(!stderr.contains("tls-s3cret") && !published.stderr.contains("tls-s3cret"))
    #expect(stderr.contains("tls://***@127.0.0.1:\(server.port)"), "\(stderr)")
  }

  /// A new user key: its seed file and its public key, as the server's configuration names it.
  static func userKey(in directory: String) throws -> (seedFile: String, publicKey: String) {
    var random = SystemRandomNumberGenerator()
    let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
    let seedFile = directory + "/user-\(UUID()).nk"
    try (NKey.userSeedText(key) + "\n").write(toFile: seedFile, atomically: true, encoding: .utf8)
    return (seedFile, NKey.userPublicKey(try Ed25519.sign([], seed: key).publicKey))
  }

  /// A consumer of `server`, then a publisher, both signing in with `auth`, 8 trades each: the
  /// consumer prints exactly the publisher's lines. Their stderr.
  static func consumeWhatIsPublished(_ server: NATSServerProcess, auth: [String]) async throws
    -> (consumer: String, publisher: String)
  {
    let symbols = ["--provider", "binance", "-s", "BTCUSDT", "--every-trade", "--count", "8"]
    let consumer = try RunningTicker(
      ["--source", server.url, "-v"] + auth + symbols, environment: Self.environment)
    #expect(await eventually { consumer.stderrSoFar.contains("subscribed to") }, "\(consumer.stderrSoFar)")
    let published = try await TickerProcess.run(
      ["--demo", "--publish", server.url, "-v"] + auth + symbols, environment: Self.environment)
    #expect(published.status == 0, "\(published.stderr)")
    let (status, stderr) = await consumer.exit()
    #expect(status == 0, "\(stderr)")
    #expect(consumer.allLines() == published.stdoutLines)
    return (stderr, published.stderr)
  }

  @Test("an NKEY seed file: the server lets that user in and no other; the seed is never printed")
  func nkeySeed() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-nkey-\(UUID())")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let user = try Self.userKey(in: directory)
    let stranger = try Self.userKey(in: directory)
    let configuration = directory + "/server.conf"
    try "authorization { users = [ { nkey: \"\(user.publicKey)\" } ] }\n".write(
      toFile: configuration, atomically: true, encoding: .utf8)
    let server = try await NATSServerProcess.start(arguments: ["-c", configuration])
    let symbols = ["--provider", "binance", "-s", "BTCUSDT", "--every-trade", "--count", "8"]
    let refused = try await TickerProcess.run(
      ["--source", server.url, "--nats-nkey", stranger.seedFile] + symbols, environment: Self.environment)
    #expect(refused.status == 69, "\(refused.stderr)")
    #expect(refused.stderr.contains("refused the credentials"), "\(refused.stderr)")
    let (stderr, publisher) = try await Self.consumeWhatIsPublished(
      server, auth: ["--nats-nkey", user.seedFile])
    let seeds = try [user.seedFile, stranger.seedFile].map {
      try String(contentsOfFile: $0, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    for text in [refused.stderr, stderr, publisher] {
      #expect(!seeds.contains { text.contains($0) }, "a seed was printed")
    }
    // A file that is not a seed: said, exit 78, without quoting it.
    let bad = directory + "/bad.nk"
    try "SUNOTASEED\n".write(toFile: bad, atomically: true, encoding: .utf8)
    let unusable = try await TickerProcess.run(
      ["--source", server.url, "--nats-nkey", bad] + symbols, environment: Self.environment)
    #expect(unusable.status == 78, "\(unusable.stderr)")
    #expect(unusable.stderr.contains("cannot use the --nats-nkey file"), "\(unusable.stderr)")
    #expect(!unusable.stderr.contains("SUNOTASEED"))
  }

  @Test("a credentials file against a server in operator mode: publisher and consumer agree")
  func credentialsFile() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-creds-\(UUID())")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let mode = try OperatorMode(in: directory)
    let server = try await NATSServerProcess.start(arguments: ["-c", mode.serverConfiguration])
    let symbols = ["--provider", "binance", "-s", "BTCUSDT", "--every-trade", "--count", "8"]
    let anonymous = try await TickerProcess.run(
      ["--source", server.url] + symbols, environment: Self.environment)
    #expect(anonymous.status == 69, "\(anonymous.stderr)")
    let (stderr, publisher) = try await Self.consumeWhatIsPublished(
      server, auth: ["--nats-creds", mode.credentials])
    let seed = try #require(
      try String(contentsOfFile: mode.credentials, encoding: .utf8).split(separator: "\n").first {
        $0.hasPrefix("SU")
      })
    #expect(!stderr.contains(seed) && !publisher.contains(seed), "the seed was printed")
  }

  @Test(
    "--source --asset BTC --board on a terminal: the cross-venue board, full at once from the stream",
    .requires(.tmux))
  func boardFromTheBus() async throws {
    let server = try await NATSServerProcess.start(jetStream: true)
    // A publisher that has stopped: everything the board shows comes from the stream.
    let published = try await TickerProcess.run(
      [
        "--demo", "--asset", "BTC", "--every-trade", "--format", "json", "--count", "250", "--publish",
        server.url, "--publish-stream", "TICKER",
      ], environment: Self.environment)
    #expect(published.status == 0, "\(published.stderr)")
    // Each venue's markets (two venues may spell a market alike: Binance's and Bybit's BTCUSDT).
    let traded = Set(
      published.stdoutLines.compactMap { line -> String? in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let provider = object["provider"] as? String, let symbol = object["symbol"] as? String
        else { return nil }
        return provider + "/" + symbol
      })
    #expect(traded.count == AssetMarkets.symbolCount, "every market of the run traded: \(traded)")
    try await TmuxSession.with(columns: 160, rows: 32) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --source \(server.url) --asset BTC --board; echo EXIT=$?")
      let shown = await tmux.waitForScreen { CrossVenueBoardTerminalTests.complete($0) }
      #expect(shown != nil, "the board never showed every venue: \(tmux.screen())")
      let status = shown?.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      #expect(status?.contains("connected · \(AssetMarkets.symbolCount) symbols") == true, "\(shown ?? [])")
      await tmux.keys("C-c")
      _ = await BoardTerminalTests().expectRestored(tmux, exit: 130)
    }
  }

  @Test(
    "--source with --alert and --on-alert: the command runs for the bus's price, with it in its environment")
  func alertsFromTheBus() async throws {
    let server = try await NATSServerProcess.start(jetStream: true)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-alert-\(UUID())")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = directory + "/alerts.log"
    var environment = Self.environment
    environment["LOG"] = log
    let consumer = try await Self.consumer(
      server,
      [
        "-s", "binance/BTCUSDT", "-s", "coinbase/BTC-USD", "--every-trade", "--count", "6",
        "--alert", "binance/BTCUSDT>1", "--on-alert",
        #"printf '%s %s %s\n' "$TICKER_ALERT" "$TICKER_PROVIDER" "$TICKER_PRICE" >> "$LOG""#,
      ], environment: environment)
    let published = try await TickerProcess.run(
      [
        "--demo", "-s", "binance/BTCUSDT", "-s", "coinbase/BTC-USD", "--every-trade", "--count", "6",
        "--publish",
        server.url,
      ],
      environment: Self.environment)
    #expect(published.status == 0, "\(published.stderr)")
    let (status, stderr) = await consumer.exit()
    #expect(status == 0, "\(stderr)")
    #expect(stderr.contains("alert: Binance: BTCUSDT>1: "), "\(stderr)")
    let firstBinance = try #require(consumer.allLines().first { $0.contains("\tbinance\t") })
    let price = try #require(firstBinance.split(separator: "\t").last)
    let ran = try String(contentsOfFile: log, encoding: .utf8)
    #expect(ran == "binance/BTCUSDT>1 binance \(price)\n", "\(ran)")
  }

  @Test(
    "a hostile NATS server: escapes, garbage and a 1 GiB MSG cost a warning and a reconnect, never memory")
  func hostileServer() async throws {
    let (peer, port) = try await LinePeer.python("nats_peer.py", ["hostile-source"])
    let ticker = try RunningTicker(
      [
        "--source", "nats://127.0.0.1:\(port)", "--provider", "binance", "-s", "BTCUSDT", "--every-trade",
        "--max-backoff", "0.2",
      ], environment: Self.environment)
    let first = await ticker.lines(1).first
    #expect(first == "2026-12-04T00:00:00.000Z\tBTCUSDT\t70000.10")
    #expect(await peer.expect { $0 == "CONNECTED" } != nil)
    // The 1 GiB announced is refused before any of it is held; the subscriber reconnects.
    let refused = await eventually {
      ticker.stderrSoFar.contains("the NATS server sent a message of 1073741824 bytes")
    }
    #expect(refused, "\(ticker.stderrSoFar)")
    #expect(await eventually { peer.all.filter { $0 == "CONNECTED" }.count >= 3 }, "\(peer.all)")
    let peak = ticker.peakResidentKilobytes() ?? 0
    ticker.signal(SIGINT)
    let (status, stderr) = await ticker.exit()
    await peer.finish()
    #expect(status == 130, "\(stderr)")
    #expect(peak > 0 && peak < 40_000, "peak RSS \(peak) KiB")
    #expect(stderr.contains("not JSON"), "\(stderr)")
    let everything = ticker.allLines().joined(separator: "\n") + stderr
    #expect(!everything.unicodeScalars.contains("\u{1B}"), "an escape reached the terminal")
    // Every connection printed the one valid price, and only it.
    #expect(Set(ticker.allLines()) == ["2026-12-04T00:00:00.000Z\tBTCUSDT\t70000.10"])
  }
}

/// An operator, an account and a user, with the JWTs nats-server's operator mode reads
/// (`nsc` would make them; it is not in Debian): each JWT is signed by its issuer's key.
struct OperatorMode {
  let serverConfiguration: String
  let credentials: String

  static func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  static func key() -> [UInt8] {
    var random = SystemRandomNumberGenerator()
    return (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
  }

  static func jwt(issuer: [UInt8], issuerKey: String, subject: String, name: String, nats: [String: Any])
    throws
    -> String
  {
    let header = base64url(Array(#"{"typ":"JWT","alg":"ed25519-nkey"}"#.utf8))
    let claims: [String: Any] = [
      "jti": Base32.encode(key()), "iat": Int(Date().timeIntervalSince1970), "iss": issuerKey, "name": name,
      "sub": subject, "nats": nats,
    ]
    let body = base64url(Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])))
    let signature = try Ed25519.sign(Array("\(header).\(body)".utf8), seed: issuer).signature
    return "\(header).\(body).\(base64url(signature))"
  }

  init(in directory: String) throws {
    let (operatorKey, accountKey, userKey) = (Self.key(), Self.key(), Self.key())
    let operatorPublic = NKey.publicKey(try Ed25519.sign([], seed: operatorKey).publicKey, prefix: 14 << 3)
    let accountPublic = NKey.publicKey(try Ed25519.sign([], seed: accountKey).publicKey, prefix: 0)
    let userPublic = NKey.userPublicKey(try Ed25519.sign([], seed: userKey).publicKey)
    let operatorJWT = try Self.jwt(
      issuer: operatorKey, issuerKey: operatorPublic, subject: operatorPublic, name: "test operator",
      nats: ["type": "operator", "version": 2])
    let unlimited: [String: Any] = [
      "subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1, "wildcards": true, "conn": -1,
      "leaf": -1,
    ]
    let accountJWT = try Self.jwt(
      issuer: operatorKey, issuerKey: operatorPublic, subject: accountPublic, name: "desk",
      nats: ["type": "account", "version": 2, "limits": unlimited])
    let userJWT = try Self.jwt(
      issuer: accountKey, issuerKey: accountPublic, subject: userPublic, name: "ticker",
      nats: ["type": "user", "version": 2, "subs": -1, "data": -1, "payload": -1, "pub": [:], "sub": [:]])
    serverConfiguration = directory + "/operator.conf"
    try """
    operator: "\(operatorJWT)"
    resolver: MEMORY
    resolver_preload: { \(accountPublic): "\(accountJWT)" }

    """.write(toFile: serverConfiguration, atomically: true, encoding: .utf8)
    credentials = directory + "/ticker.creds"
    try """
    -----BEGIN NATS USER JWT-----
    \(userJWT)
    ------END NATS USER JWT------

    ************************* IMPORTANT *************************
    NKEY Seed printed below can be used to sign and prove identity.
    NKEYs are sensitive and should be treated as secrets.

    -----BEGIN USER NKEY SEED-----
    \(NKey.userSeedText(userKey))
    ------END USER NKEY SEED------

    """.write(toFile: credentials, atomically: true, encoding: .utf8)
  }
}

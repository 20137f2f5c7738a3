import Emulators
import Foundation
import TestSupport
import Testing

@testable import Transport
@testable import WebSocketServer

/// `ticker serve` facing clients it must not trust, and a network it must not open by accident:
/// the bind and token rules, the client limit, garbage from clients, and the upstream's token.
@Suite("ticker serve: access and hostile clients", .serialized)
struct ServeHostileClientTests {
  @Test(
    "binding beyond loopback without --serve-token is refused at start (exit 64)",
    arguments: ["0.0.0.0", "::"])
  func bindNeedsToken(address: String) async throws {
    let result = try await TickerProcess.run(["serve", "--demo", "--bind", address, "--port", "0"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--serve-token"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test(
    "with --serve-token, a client needs ?token= exactly: missing or wrong is HTTP 401, no upgrade",
    .requires(.websocat, .pythonWebsockets))
  func tokenRequired() async throws {
    let serve = try await ServeRun.start(["--demo", "--bind", "0.0.0.0", "--serve-token", "s3cret"])
    #expect(serve.url.hasPrefix("ws://0.0.0.0:"))
    let local = "ws://127.0.0.1:\(serve.port)/"
    for target in ["", "?token=", "?token=s3cre", "?token=s3cretx", "?other=s3cret"] {
      let (peer, first) = try await ServeRun(process: serve.process, url: local, port: serve.port).python(
        target)
      #expect(first.hasPrefix("REFUSED 401"), "\(target): \(first)")
      #expect(!first.contains("s3cret"), "\(first)")
      await peer.finish()
    }
    let (peer, first) = try await ServeRun(process: serve.process, url: local, port: serve.port).python(
      "?token=s3cret")
    #expect(first == "OPEN")
    peer.send(subscribe("BINANCE:BTCUSDT"))
    #expect(await peer.expect { $0.contains(#""s":"BINANCE:BTCUSDT""#) } != nil)
    await peer.finish()
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(ended.status == 130)
    #expect(ended.stderr.contains("refused a connection with HTTP 401"))
    #expect(!ended.stderr.contains("s3cret"))
  }

  @Test(
    "garbage, oversized, binary and too many symbols: a Finnhub error, then the close code that says why",
    .requires(.websocat, .pythonWebsockets))
  func hostileMessages() async throws {
    let serve = try await ServeRun.start(["--demo", "-v"])  // -v: what clients send is logged
    let tooMany = (0..<51).map { subscribe("BINANCE:S\($0)USDT") }
    let cases: [(lines: [String], code: Int, error: String)] = [
      (["not json at all"], 1008, "not JSON"),
      ([#"{"type":"subscribe"}"#], 1008, "symbol"),
      ([#"{"type":"hello","symbol":"X"}"#], 1008, "Invalid message type"),
      ([#"{"type":"subscribe","symbol":"A\u001b[2J"}"#], 1008, "Invalid symbol"),
      (["BIG 5000"], 1009, "too large"),
      (["BINARY 00ff1b5b"], 1003, "Binary"),
      (tooMany, 1008, "too many symbols"),
      // Far more than the burst: most are still unread when the server closes, and the close
      // must reach the client all the same (no reset on unread bytes).
      (Array(repeating: #"{"type":"ping"}"#, count: 3_000), 1008, "Too many requests"),
    ]
    for (lines, code, error) in cases {
      let (peer, first) = try await serve.python()
      #expect(first == "OPEN")
      for line in lines { peer.send(line) }
      let told = await peer.expect { $0.contains(#""type":"error""#) }
      #expect(told?.contains(error) == true, "\(lines.first ?? ""): \(told ?? "no error")")
      let closed = await peer.expect { $0.hasPrefix("CLOSED") }
      #expect(closed?.hasPrefix("CLOSED \(code)") == true, "\(lines.first ?? ""): \(closed ?? "not closed")")
      await peer.finish()
    }
    // A well-behaved client is unaffected meanwhile; and nothing a client sent reached stderr raw.
    let (peer, _) = try await serve.python()
    peer.send(subscribe("BINANCE:BTCUSDT"))
    #expect(await peer.expect { $0.contains(#""s":"BINANCE:BTCUSDT""#) } != nil)
    await peer.finish()
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(ended.status == 130)
    #expect(!ended.stderr.contains("\u{1b}"))
  }

  @Test("beyond --max-clients the upgrade is refused with HTTP 503", .requires(.websocat, .pythonWebsockets))
  func clientLimit() async throws {
    let serve = try await ServeRun.start(["--demo", "--max-clients", "1"])
    let (first, opened) = try await serve.python()
    #expect(opened == "OPEN")
    let (second, refused) = try await serve.python()
    #expect(refused.hasPrefix("REFUSED 503"), "\(refused)")
    await second.finish()
    await first.finish()
    // The slot is free again once the first has gone.
    #expect(await eventually { serve.process.stderrSoFar.contains("client 1 disconnected") })
    let (third, again) = try await serve.python()
    #expect(again == "OPEN")
    await third.finish()
    serve.process.signal(SIGINT)
    #expect(await serve.process.exit().status == 130)
  }

  @Test("a port in use: a clear message and exit 71")
  func portInUse() async throws {
    let taken = try TCPListener(host: "127.0.0.1", port: 0)
    defer { taken.close() }
    let result = try await TickerProcess.run(["serve", "--demo", "--port", String(taken.port)])
    #expect(result.status == 71)
    #expect(result.stderr.contains("cannot listen on 127.0.0.1 port \(taken.port)"), "\(result.stderr)")
    #expect(result.stderr.contains("in use"), "\(result.stderr)")
  }

  @Test(
    "the upstream token never reaches a client: not in trades, errors, refusals or headers",
    .requires(.websocat, .pythonWebsockets))
  func upstreamTokenStaysHome() async throws {
    let secret = "upstream-secret-4242"
    let script = [ServeRun.accepted, ServeRun.trade([("AAPL", "187.20", 1)])].joined(separator: "\n")
    // Symbols the script does not trade are refused upstream (`Invalid symbol`); the replay
    // starts at the second subscription (AAPL, after NOPE).
    let upstream = try ServeRun.upstream(script, awaitSubscriptions: 2, acceptAnySymbol: false)
    defer { upstream.stop() }
    let serve = try await ServeRun.start(
      ["--url", upstream.url.description, "--serve-token", "client-token", "-v"],
      environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": secret]))
    var received: [String] = []
    let (refusedPeer, refused) = try await serve.python("?token=wrong")
    received.append(refused)
    await refusedPeer.finish()

    let (peer, first) = try await serve.python("?token=client-token")
    #expect(first == "OPEN")
    peer.send(subscribe("NOPE"))
    let invalid = await peer.expect { $0.contains("Invalid symbol NOPE") }
    #expect(invalid != nil, "\(serve.process.stderrSoFar)")
    peer.send(subscribe("AAPL"))
    #expect(await peer.expect { $0.contains(#""p":187.20"#) } != nil)
    peer.send("garbage")
    #expect(await peer.expect { $0.hasPrefix("CLOSED") } != nil)
    await peer.finish()
    received += peer.all
    // The upstream did get the token (so its absence downstream means something).
    #expect(upstream.record.targets.contains { $0.contains(secret) })
    for line in received { #expect(!line.contains(secret), "\(line)") }
    serve.process.signal(SIGINT)
    let ended = await serve.process.exit()
    #expect(!ended.stderr.contains(secret))
  }

  @Test(
    "SIGINT: clients get close 1001, the upstream close 1000, exit 130",
    .requires(.websocat, .pythonWebsockets))
  func interrupt() async throws {
    let upstream = try ServeRun.upstream(ServeRun.accepted)
    defer { upstream.stop() }
    let serve = try await ServeRun.start(
      ["--url", upstream.url.description], environment: TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": "k"])
    )
    let (peer, _) = try await serve.python()
    peer.send(subscribe("AAPL"))
    #expect(await eventually { upstream.count(subscribe("AAPL")) == 1 })
    serve.process.signal(SIGINT)
    let closed = await peer.expect { $0.hasPrefix("CLOSED") }
    #expect(closed?.hasPrefix("CLOSED 1001") == true, "\(closed ?? "")")
    let ended = await serve.process.exit()
    #expect(ended.status == 130, "\(ended.stderr)")
    #expect(upstream.count(unsubscribe("AAPL")) == 1)
    #expect(await eventually { upstream.record.clientCloses.contains { $0?.code == .normalClosure } })
    await peer.finish()
  }
}

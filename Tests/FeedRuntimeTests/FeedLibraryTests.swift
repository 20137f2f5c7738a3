import Emulators
import FeedRuntime
import Foundation
import Outputs
import Recording
import Synchronization
import Testing
import Venues
import WebSocketClient

@testable import TestSupport
@testable import TickerSupport
@testable import Transport
@testable import WebSocketWire

/// The runtime as a library, against FeedServer's Finnhub emulation: subscriptions change while
/// running, from another task, and a reconnect sends the current set, never the initial one.
@Suite("FeedCore against FeedServer", .ownThread)
struct FeedLibraryTests {
  final class Collected: Sendable {
    let reports = Mutex<[FeedReport]>([])
    let quotes = Mutex<[String]>([])
  }

  static func subscribe(_ symbol: String) -> String { #"{"type":"subscribe","symbol":"\#(symbol)"}"# }
  static func unsubscribe(_ symbol: String) -> String { #"{"type":"unsubscribe","symbol":"\#(symbol)"}"# }

  @Test(
    "stdout a pipe nobody reads for a while: the feed writes small batches itself, then queues; every trade once, in order",
    .timeLimit(.minutes(1)))
  func stdoutReadLate() async throws {
    signal(SIGPIPE, SIG_IGN)
    let count = 3000
    var script = [
      #"{"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}"#,
      #"{"dir":"C>","kind":"text","after_ms":0,"body":"{\"type\":\"subscribe\",\"symbol\":\"AAPL\"}"}"#,
    ]
    for i in 0..<count {
      script.append(
        #"{"dir":"S>","kind":"text","after_ms":0,"body":"{\"data\":[{\"p\":"#
          + "\(100_000 + i)" + #",\"s\":\"AAPL\",\"t\":"# + "\(i)" + #"}],\"type\":\"trade\"}"}"#)
    }
    let server = try FeedServer(
      script: SessionScript(ndjson: script.joined(separator: "\n")),
      options: .init(timeScale: 0, ending: .close(CloseStatus(code: .normalClosure))))
    server.start()
    defer { server.stop() }
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let (readEnd, writeEnd) = (fds[0], fds[1])
    _ = fcntl(writeEnd, 1031, 4096)  // F_SETPIPE_SZ: full after about 585 lines
    let feed = Feed(
      Feed.Settings(
        provider: FinnhubProvider(), engine: NativeEngine(), url: server.url,
        session: SessionConfiguration(maxRetries: 0), mode: .everyTrade, symbols: ["AAPL"])
    ) { _ in }
    // Nobody reads until the pipe is full (the writer finds no room and waits): what comes
    // after waits in the output's queue and the feed holds back; it never stops nor loses a line.
    // The writer says when it finds the pipe full (or the feed ends, should the pipe have turned
    // out larger than asked); the reader, a thread of its own, waits for that.
    let full = DispatchSemaphore(value: 0)
    let writer = QuoteWriter(
      formatter: PriceOnlyFormatter(), writer: FileDescriptorWriter(fd: writeEnd, onFull: { full.signal() }),
      limit: nil)
    let output = StdoutOutput.start(on: feed, writer: writer)
    let run = Task.preferringCurrentExecutor { await feed.run() }
    let told = Mutex(false)
    let reader = Task.preferringCurrentExecutor {
      await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8], Never>) in
        DedicatedThread.start {
          // Bounded, so that a writer that waits without saying so fails the test, not hangs it.
          told.withLock { $0 = full.wait(timeout: .now() + 30) == .success }
          var out: [UInt8] = []
          var chunk = [UInt8](repeating: 0, count: 4096)
          while true {
            let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += chunk[0..<n]
          }
          continuation.resume(returning: out)
        }
      }
    }
    let outcome = await run.value
    await output.value
    full.signal()
    close(writeEnd)
    let lines = String(decoding: await reader.value, as: UTF8.self).split(separator: "\n").map(String.init)
    close(readEnd)
    #expect(told.withLock { $0 }, "the writer waited for the pipe without saying so")
    #expect(lines == (0..<count).map { String(100_000 + $0) })
    #expect(outcome == .serverClosed(CloseStatus(code: .normalClosure)), "\(outcome)")
  }

  @Test(.timeLimit(.minutes(1)))
  func subscriptionsChangeWhileRunningAndSurviveAReconnect() async throws {
    let fixture = try SessionScript(ndjson: Fixture.text("finnhub-session.ndjson"))
    let server = try FeedServer(script: fixture, options: .init(timeScale: 0, ending: .hold))
    server.start()
    defer { server.stop() }
    let collected = Collected()
    let feed = Feed(
      Feed.Settings(
        provider: FinnhubProvider(), engine: NativeEngine(), url: server.url,
        session: SessionConfiguration(backoff: Backoff(initialDelay: .milliseconds(50))), mode: .everyTrade,
        symbols: ["BINANCE:BTCUSDT"])
    ) { report in collected.reports.withLock { $0.append(report) } }
    let subscription = feed.bus.subscribe()
    let reader = Task.preferringCurrentExecutor {
      while let batches = try? await subscription.queue.nextBatch() {
        for quotes in batches {
          collected.quotes.withLock { $0 += quotes.map { "\($0.symbol) \($0.price)" } }
        }
      }
    }
    let run = Task.preferringCurrentExecutor { await feed.run() }
    func seen(_ message: String, times: Int = 1) async -> Bool {
      let found = await eventually { server.record.clientMessages.filter { $0 == message }.count >= times }
      if !found {
        // What happened instead, for a failure that does not come back on demand.
        let record = server.record
        let reports = collected.reports.withLock { $0 }
        Issue.record(
          "\(message) ×\(times) not seen; the server saw \(record.clientMessages), \(record.connections) connection(s); reports: \(reports)"
        )
      }
      return found
    }

    #expect(await seen(Self.subscribe("BINANCE:BTCUSDT")))
    // From another task, while connected: each change is one message on the wire.
    Task.detached { feed.subscribe(["AAPL", "BINANCE:BTCUSDT"]) }
    #expect(await seen(Self.subscribe("AAPL")))
    feed.unsubscribe(["BINANCE:BTCUSDT"])
    #expect(await seen(Self.unsubscribe("BINANCE:BTCUSDT")))
    feed.control("+MSFT")  // the server does not know MSFT: its "Invalid symbol" error is reported
    #expect(await seen(Self.subscribe("MSFT")))

    // The connection drops: the next one is subscribed to AAPL and MSFT, not BINANCE:BTCUSDT.
    server.dropConnections()
    #expect(await seen(Self.subscribe("AAPL"), times: 2))
    #expect(await seen(Self.subscribe("MSFT"), times: 2))
    #expect(
      await eventually {
        collected.reports.withLock { $0.contains(.connected(attempt: 1, symbols: ["AAPL", "MSFT"])) }
      })

    feed.stop(.signal(2))
    #expect(await run.value == .stopped(.signal(2)))
    await reader.value
    let messages = server.record.clientMessages
    #expect(messages.filter { $0 == Self.subscribe("BINANCE:BTCUSDT") }.count == 1)
    #expect(messages.suffix(2) == [Self.unsubscribe("AAPL"), Self.unsubscribe("MSFT")])
    #expect(
      collected.reports.withLock {
        $0.contains(.venueError(VenueError(message: "Invalid symbol MSFT", fatal: false, symbol: "MSFT")))
      })
    #expect(
      collected.reports.withLock {
        $0.contains(.subscriptionChanged(added: ["AAPL"], removed: [], now: ["BINANCE:BTCUSDT", "AAPL"]))
      })
  }
}

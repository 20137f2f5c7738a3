import Foundation
import TestSupport
import Testing

/// `--publish` and `--source` of best bids and asks against a real `nats-server`: their own
/// subjects beside the trades', and a consumer printing the publisher's lines byte for byte.
@Suite(
  "--bid-ask over NATS", .serialized, .requires(.natsServer, .pythonWebsockets), .timeLimit(.minutes(3)))
struct BidAskNATSTests {
  static let environment = TickerProcess.cleanEnvironment()

  @Test(
    "a consumer prints the publisher's quotes byte for byte; a trade consumer of the same symbol gets none")
  func publishAndSource() async throws {
    let server = try await NATSServerProcess.start(jetStream: true)
    let flags = ["--provider", "binance", "-s", "BTCUSDT,ETHUSDT", "--format", "json"]
    let quotes = try RunningTicker(
      ["--source", server.url, "-v", "--bid-ask", "--count", "10"] + flags, environment: Self.environment)
    let trades = try RunningTicker(["--source", server.url, "-v"] + flags, environment: Self.environment)
    for consumer in [quotes, trades] {
      #expect(await eventually { consumer.stderrSoFar.contains("subscribed to") }, "\(consumer.stderrSoFar)")
    }
    let published = try await TickerProcess.run(
      ["--demo", "--bid-ask", "--every-trade", "--count", "10", "--publish", server.url] + flags,
      environment: Self.environment)
    #expect(published.status == 0, "\(published.stderr)")
    let (status, stderr) = await quotes.exit()
    #expect(status == 0, "\(stderr)")
    #expect(quotes.allLines() == published.stdoutLines, "\(stderr)")
    #expect(published.stdoutLines.allSatisfy { $0.contains(#""bid":"#) && $0.contains(#""ask":"#) })
    trades.signal(SIGINT)
    _ = await trades.exit()
    #expect(trades.allLines().isEmpty, "a trade consumer printed a quote: \(trades.allLines())")
  }
}

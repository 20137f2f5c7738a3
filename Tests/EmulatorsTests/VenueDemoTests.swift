import FeedRuntime
import Foundation
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The demo sessions and load generation per venue: what `ticker --demo --provider X` and
/// `feedserve --blast N --venue X` serve.
@Suite("FeedServer: demo sessions and blasts per venue", .ownThread)
struct VenueDemoTests {
  @Test("each venue's demo is its fixture, word for word", arguments: VenueEmulation.catalog)
  func demoMatchesFixture(venue: VenueEmulation) throws {
    let fixture = try Fixture.text("\(venue.name)-session.ndjson")
    #expect(venue.demoSession == fixture.trimmingCharacters(in: .newlines))
    #expect(DemoSession.script(forProvider: venue.name) == venue.demoSession)
    _ = try SessionScript(ndjson: venue.demoSession)
  }

  @Test("lookups by provider name")
  func lookups() {
    #expect(DemoSession.script(forProvider: "UPBIT") == DemoSession.upbit)
    #expect(DemoSession.script(forProvider: "Kraken") == DemoSession.kraken)
    #expect(DemoSession.script(forProvider: "nope") == nil)
    #expect(FeedServer.Options.Emulation(provider: "kraken") == .venue(.kraken))
    #expect(FeedServer.Options.Emulation(provider: "binance") == .venue(.binance))
    #expect(FeedServer.Options.Emulation(provider: "Coinbase") == .venue(.coinbase))
    #expect(FeedServer.Options.Emulation(provider: "finnhub") == .venue(.finnhub))
    #expect(FeedServer.Options.Emulation(provider: "OKX") == .venue(.okx))
    #expect(FeedServer.Options.Emulation(provider: "verbatim") == nil)
    #expect(FeedServer.Options.Emulation.venue(.upbit).venue == .upbit)
    #expect(FeedServer.Options.Emulation.verbatim.venue == nil)
  }

  /// What a client of each venue sends to follow its example symbol (its provider's first
  /// subscription), and where it connects (its emulation's path).
  static func subscription(_ venue: VenueEmulation) -> (target: String?, message: String) {
    let provider = venue.provider
    var ids = RequestIDs(prefix: "demo")
    let symbol = (try? provider.canonicalSymbol(provider.exampleSymbol).get()) ?? provider.exampleSymbol
    let message = provider.subscriptionMessages(from: [], to: [symbol], ids: &ids).first?.text ?? ""
    return (venue.path == "/" ? nil : venue.path, message)
  }

  /// The price texts of one message's quotes for the venue's example symbol.
  static func prices(_ message: WebSocketMessage, _ venue: VenueEmulation, context: inout DecodingContext)
    -> [String]
  {
    let provider = venue.provider
    let symbol = (try? provider.canonicalSymbol(provider.exampleSymbol).get()) ?? provider.exampleSymbol
    let spelled = provider.serverSymbol(for: symbol)
    let event = provider.decode(message, context: &context)
    var quotes = event.quotes.filter { $0.symbol == spelled }
    // History (trades of the past) prints its newest trade, as the ticker does on a fresh run.
    if case .history(let past) = event {
      quotes = Array(past.filter { $0.symbol == spelled }.sorted { $0.time < $1.time }.suffix(1))
    }
    return quotes.map(\.price.text)
  }

  @Test(
    "--demo per venue: the recorded prices, then a random walk in the venue's own format",
    arguments: VenueEmulation.catalog)
  func demo(venue: VenueEmulation) async throws {
    let server = try FeedServer(
      script: SessionScript(ndjson: venue.demoSession),
      options: .init(
        // Paced (each step at most 5 ms), not blasted: a dozen venues at once must leave the
        // machine to the tests that keep time.
        timeScale: 1, maximumDelay: 0.005, emulation: .venue(venue.patient()),
        ending: .synthetic(seed: 2026, interval: 0.005)))
    server.start()
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    let (target, message) = Self.subscription(venue)
    var url = server.url
    if let target { url.target = target }
    let connection = MessageReader(
      try await NativeEngine().connect(to: url, options: ConnectOptions(connectTimeout: 30)))
    try await connection.send(.text(message))
    var prices: [String] = []
    var context = DecodingContext()
    while prices.count < 25 {
      guard let next = await connection.next() else { break }
      prices += Self.prices(next, venue, context: &context)
    }
    await connection.close()
    #expect(prices.count >= 25)
    let expected = venue.demoPrices
    #expect(Array(prices.prefix(expected.count)) == expected)
    // The synthetic part: numbers in the venue's style (decimal strings with Binance's 8 and
    // Coinbase's 2 places, Upbit's whole won with `.0` or an exponent, Kraken's numbers with a digit
    // after the point, OKX's without trailing zeros), moving.
    let synthetic = Array(prices.dropFirst(expected.count + (venue == .finnhub ? 5 : 0)))
    #expect(Set(synthetic).count > 1)
    for price in synthetic {
      switch venue {
      case .binance: #expect(price.split(separator: ".").last?.count == 8, "\(price)")
      case .coinbase: #expect(price.split(separator: ".").last?.count == 2, "\(price)")
      case .upbit: #expect(price.hasSuffix(".0") || !price.contains("."), "\(price)")
      case .finnhub: #expect(Double(price) != nil)
      case .kraken: #expect(price.contains(".") && Double(price) != nil, "\(price)")
      case .okx:
        #expect(Price(price)?.text == price && !(price.contains(".") && price.hasSuffix("0")), "\(price)")
      default: #expect(Price(price)?.text == price, "\(price)")
      }
    }
    #expect(server.record.violations.isEmpty)
  }

  @Test(
    "blast frames per venue: one trade each, distinct, in the venue's frames",
    arguments: VenueEmulation.catalog)
  func blastFrames(venue: VenueEmulation) throws {
    let count = 3
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    parser.append(BlastFrames.frames(count: count, venue: venue))
    var frames: [Frame] = []
    while let frame = try parser.next() { frames.append(frame) }
    #expect(frames.count == count)
    #expect(frames.allSatisfy { $0.opcode == venue.blastOpcode })
    var context = try VenueDecoderAgreementTests.subscribedContext(venue)
    let prices = frames.flatMap { frame in
      Self.prices(
        frame.opcode == .binary
          ? .binary(frame.payload) : .text(String(decoding: frame.payload, as: UTF8.self)), venue,
        context: &context)
    }
    #expect(prices.count == count && Set(prices).count == count, "\(prices)")
    #expect(
      BlastFrames.batch(for: venue).count
        == BlastFrames.frames(count: BlastFrames.messagesPerBatch, venue: venue).count)
    if venue == .upbit {
      // Every other price in Java's exponent form (`1.03167E8`), read as the plain number it is.
      #expect(prices.contains { !$0.contains(".") } && prices.contains { $0.hasSuffix(".0") })
    }
  }

  @Test("a venue blast over a socket: the venue's subscription first, then the frames")
  func venueBlast() async throws {
    let server = try FeedServer(
      script: SessionScript(steps: []),
      options: .init(
        emulation: .venue(.binance),
        plans: [.init(ending: .venueBlast(.binance, count: 2500, then: .close(.init(code: .normalClosure))))])
    )
    server.start()
    let guardian = HangGuard(server)
    defer {
      guardian.cancel()
      server.stop()
    }
    var url = server.url
    url.target = "/stream?streams=btcusdt@trade"
    let connection = MessageReader(
      try await NativeEngine().connect(to: url, options: ConnectOptions(connectTimeout: 30)))
    let messages = await connection.drain()
    let failed = connection.failed
    #expect(!failed)
    #expect(messages.count == 2500)
    // 1000, 1000, then 500 of the batch.
    #expect(messages.last == .text(VenueEmulation.binance.blastMessage(499)))
    #expect(server.record.blasted == 2500)
  }
}

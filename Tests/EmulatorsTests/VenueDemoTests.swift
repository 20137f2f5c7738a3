import FeedRuntime
import Foundation
import Testing
import Venues
import WebSocketClient

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport

/// The demo sessions and load generation per venue: what `ticker --demo --provider X` and
/// `feedserve --blast N --venue X` serve.
@Suite("FeedServer: demo sessions and blasts per venue")
struct VenueDemoTests {
  @Test("each venue's demo is its fixture, word for word", arguments: Venue.allCases)
  func demoMatchesFixture(venue: Venue) throws {
    let fixture = try Fixture.text("\(venue.rawValue)-session.ndjson")
    #expect(DemoSession.script(for: venue) == fixture.trimmingCharacters(in: .newlines))
    #expect(DemoSession.script(forProvider: venue.rawValue) == DemoSession.script(for: venue))
    _ = try SessionScript(ndjson: DemoSession.script(for: venue))
  }

  @Test("lookups by provider name")
  func lookups() {
    #expect(DemoSession.script(forProvider: "UPBIT") == DemoSession.upbit)
    #expect(DemoSession.script(forProvider: "Kraken") == DemoSession.kraken)
    #expect(DemoSession.script(forProvider: "nope") == nil)
    #expect(FeedServer.Options.Emulation(provider: "kraken") == .venue(.kraken))
    #expect(FeedServer.Options.Emulation(provider: "binance") == .binance)
    #expect(FeedServer.Options.Emulation(provider: "Coinbase") == .coinbase)
    #expect(FeedServer.Options.Emulation(provider: "finnhub") == .finnhub)
    #expect(FeedServer.Options.Emulation(provider: "OKX") == .venue(.okx))
    #expect(FeedServer.Options.Emulation(provider: "verbatim") == nil)
    #expect(FeedServer.Options.Emulation.upbit.venue == .upbit)
    #expect(FeedServer.Options.Emulation.verbatim.venue == nil)
  }

  /// Coinbase's subscribe deadline and OKX's quiet close are real time, which a test task held
  /// up on a loaded machine could miss; they are tested on their own.
  static var patientRules: VenueRules {
    var rules = VenueRules()
    rules.subscribeDeadline = 60
    rules.quietTimeout = nil
    return rules
  }

  /// What a client of each venue sends to follow its demo symbol, and where it connects.
  static func subscription(_ venue: Venue) -> (target: String?, message: String) {
    switch venue {
    case .finnhub: (nil, #"{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}"#)
    case .upbit: (nil, #"[{"ticket":"demo"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"SIMPLE"}]"#)
    case .binance: ("/stream", #"{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":1}"#)
    case .coinbase: (nil, #"{"type":"subscribe","product_ids":["BTC-USD"],"channels":["ticker"]}"#)
    case .kraken:
      (nil, #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD"]},"req_id":1}"#)
    case .okx: (nil, #"{"id":"1","op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#)
    }
  }

  /// The price of one data message in the venue's format, nil for anything else.
  static func prices(_ message: WebSocketMessage, _ venue: Venue) -> [String] {
    guard let value = try? JSONParser().parse(message.text) else { return [] }
    switch venue {
    case .finnhub:
      return value["data"]?.arrayValue?.compactMap { $0["p"]?.numberText } ?? []
    case .upbit:
      guard message.isBinary, value["cd"]?.stringValue == "KRW-BTC" else { return [] }
      return value["tp"]?.numberText.map { [$0] } ?? []
    case .binance:
      return value["data"]?["p"]?.stringValue.map { [$0] } ?? []
    case .coinbase:
      guard value["type"]?.stringValue == "ticker" else { return [] }
      return value["price"]?.stringValue.map { [$0] } ?? []
    case .kraken:
      guard value["channel"]?.stringValue == "ticker" else { return [] }
      return value["data"]?.arrayValue?.compactMap { $0["last"]?.numberText } ?? []
    case .okx:
      guard value["arg"]?["channel"]?.stringValue == "tickers" else { return [] }
      return value["data"]?.arrayValue?.compactMap { $0["last"]?.stringValue } ?? []
    }
  }

  @Test(
    "--demo per venue: the recorded prices, then a random walk in the venue's own format",
    arguments: Venue.allCases)
  func demo(venue: Venue) async throws {
    let server = try FeedServer(
      script: SessionScript(ndjson: DemoSession.script(for: venue)),
      options: .init(
        timeScale: 0, emulation: .init(venue), ending: .synthetic(seed: 2026, interval: 0.005),
        rules: Self.patientRules))
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
    while prices.count < 25 {
      guard let next = await connection.next() else { break }
      prices += Self.prices(next, venue)
    }
    await connection.close()
    #expect(prices.count >= 25)
    let recorded: [String: [String]] = [
      "finnhub": ["95372.09", "95372.1"], "upbit": ["103160000.0", "1.03156E8"],
      "binance": ["78860.00000000"],
      "coinbase": ["80691.53"],
      "kraken": ["80912.4", "80915.0", "80909.8"],
      "okx": ["79412.6", "79412.5", "79413", "79415.2"],
    ]
    let expected = recorded[venue.rawValue] ?? []
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
      case .upbit: #expect(price.hasSuffix(".0") || price.contains("E"), "\(price)")
      case .finnhub: #expect(Double(price) != nil)
      case .kraken: #expect(price.contains(".") && Double(price) != nil, "\(price)")
      case .okx:
        #expect(Price(price)?.text == price && !(price.contains(".") && price.hasSuffix("0")), "\(price)")
      }
    }
    #expect(server.record.violations.isEmpty)
  }

  @Test("blast frames per venue: one trade each, distinct, in the venue's frames", arguments: Venue.allCases)
  func blastFrames(venue: Venue) throws {
    let count = 3
    var parser = FrameParser(role: .client, maximumFrameSize: 1 << 20)
    parser.append(BlastFrames.frames(count: count, venue: venue))
    var frames: [Frame] = []
    while let frame = try parser.next() { frames.append(frame) }
    #expect(frames.count == count)
    #expect(frames.allSatisfy { $0.opcode == (venue == .upbit ? .binary : .text) })
    let prices = frames.flatMap { frame in
      Self.prices(
        frame.opcode == .binary
          ? .binary(frame.payload) : .text(String(decoding: frame.payload, as: UTF8.self)), venue)
    }
    #expect(prices.count == count && Set(prices).count == count, "\(prices)")
    #expect(
      BlastFrames.batch(for: venue).count
        == BlastFrames.frames(count: BlastFrames.messagesPerBatch, venue: venue).count)
    if venue == .upbit {
      #expect(prices.contains { $0.contains("E") } && prices.contains { $0.hasSuffix(".0") })
    }
  }

  @Test("a venue blast over a socket: the venue's subscription first, then the frames")
  func venueBlast() async throws {
    let server = try FeedServer(
      script: SessionScript(steps: []),
      options: .init(
        emulation: .binance,
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
    #expect(messages.last == .text(BlastFrames.message(499, venue: .binance)))
    #expect(server.record.blasted == 2500)
  }
}

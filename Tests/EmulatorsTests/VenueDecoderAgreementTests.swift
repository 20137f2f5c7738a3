import FeedRuntime
import Testing
import Venues

@testable import Emulators
@testable import Recording
@testable import TestSupport
@testable import WebSocketWire

/// The two halves agree: every message FeedServer writes as a venue (the synthetic stream of
/// the demo, the blasts of the benchmarks, the emulators' own replies) is read by that venue's
/// provider as the venue means it.
@Suite("FeedServer's venue messages through the providers")
struct VenueDecoderAgreementTests {
  /// How the venue's quotes name its example symbol.
  static func symbol(_ venue: VenueEmulation) -> String {
    let provider = venue.provider
    let symbol = (try? provider.canonicalSymbol(provider.exampleSymbol).get()) ?? provider.exampleSymbol
    return provider.serverSymbol(for: symbol)
  }

  static func provider(_ venue: VenueEmulation) throws -> any Provider {
    try #require(ProviderCatalog.provider(named: venue.name))
  }

  static func message(_ action: EmulatorAction) -> WebSocketMessage? {
    switch action {
    case .text(let text): .text(text)
    case .binary(let text): .binary(Array(text.utf8))
    default: nil
    }
  }

  /// What a client of `venue` knows of its connection once its emulation answered the
  /// subscription to the example symbol (Bitfinex's channel ids).
  static func subscribedContext(_ venue: VenueEmulation) throws -> DecodingContext {
    var emulator = ServerConnection.emulator(
      .venue(venue), script: try SessionScript(ndjson: venue.demoSession), ending: .hold)
    _ = emulator.admit(
      try VenueTest.request(venue == .binance ? "/stream?streams=btcusdt@trade" : venue.path))
    var context = DecodingContext()
    for action in emulator.receive(.text(VenueDemoTests.subscription(venue).message), at: .zero) {
      if let message = message(action) { _ = try provider(venue).decode(message, context: &context) }
    }
    return context
  }

  /// The quotes of a price message, with the price as the message writes it (in plain digits).
  static func quotes(_ message: WebSocketMessage, _ venue: VenueEmulation, context: inout DecodingContext)
    throws
    -> [Quote]
  {
    guard case .quotes(let quotes) = try provider(venue).decode(message, context: &context) else {
      Issue.record("not quotes: \(message.text)")
      return []
    }
    return quotes
  }

  @Test("blast messages: one quote each, the price as written", arguments: VenueEmulation.catalog)
  func blasts(venue: VenueEmulation) throws {
    var context = try Self.subscribedContext(venue)
    for i in 0..<50 {
      let text = venue.blastMessage(i)
      let message: WebSocketMessage = venue.blastOpcode == .binary ? .binary(Array(text.utf8)) : .text(text)
      let quotes = try Self.quotes(message, venue, context: &context)
      #expect(quotes.count == 1)
      #expect(quotes.first?.symbol == Self.symbol(venue))
      let written = VenueDemoTests.prices(message, venue, context: &context).first.flatMap(
        UpbitTicker.plainDecimal)
      #expect(quotes.first.map { "\($0.price.value)" } == written.flatMap(Double.init).map { "\($0)" })
    }
  }

  @Test("the synthetic stream after each demo: quotes in trade-time order", arguments: VenueEmulation.catalog)
  func synthetic(venue: VenueEmulation) throws {
    let script = try SessionScript(ndjson: venue.demoSession)
    var emulator = ServerConnection.emulator(
      .venue(venue), script: script, ending: .hold)
    let target =
      venue == .binance ? "/stream?streams=btcusdt@trade" : venue.path
    #expect(emulator.admit(try VenueTest.request(target)) == .accept)
    let subscribe = VenueDemoTests.subscription(venue).message
    var context = DecodingContext()
    for action in emulator.receive(.text(subscribe), at: .zero) {
      if let message = Self.message(action) {
        _ = try Self.provider(venue).decode(message, context: &context)
      }
    }
    var walk = SyntheticTrades(seed: 2026, start: emulator.lastPrices)
    var last: Int64 = 0
    var count = 0
    for _ in 0..<40 {
      let actions = emulator.synthetic(
        walk.nextTrades(symbols: emulator.subscribed, elapsedMilliseconds: 150))
      for message in actions.compactMap(Self.message) {
        // Gemini's book changes follow its trades (the top of book reads them): no trades in them.
        let book = try Self.provider(venue).decodeThroughModel(message) == .ignored("l2_updates")
        if venue.name == "gemini" && book { continue }
        for quote in try Self.quotes(message, venue, context: &context) {
          #expect(quote.symbol == Self.symbol(venue))
          #expect(quote.time >= last)
          last = quote.time
          count += 1
        }
      }
    }
    #expect(count >= 40)
  }

  @Test("the emulators' replies are what the providers take them for")
  func replies() throws {
    var upbit = UpbitEmulator(script: SessionScript(steps: []), rules: UpbitRules())
    let up = try #require(upbit.receive(.text("PING"), at: .zero).first.flatMap(Self.message))
    #expect(try Self.provider(.upbit).decode(up) == .keepalive)
    let wrong = try #require(upbit.receive(.text("[]"), at: .zero).first.flatMap(Self.message))
    guard case .error(let error) = try Self.provider(.upbit).decode(wrong) else {
      Issue.record("not an error")
      return
    }
    #expect(error.name == "WRONG_FORMAT")

    var binance = BinanceEmulator(script: SessionScript(steps: []), rules: BinanceRules())
    _ = binance.admit(try VenueTest.request("/stream"))
    let ack = try #require(
      binance.receive(.text(#"{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":4}"#), at: .zero).first
        .flatMap(Self.message))
    #expect(try Self.provider(.binance).decode(ack) == .acknowledged(id: 4))
    let refusal = try #require(
      binance.receive(.text(#"{"method":"SUBSCRIBE","params":["x"],"id":5}"#), at: .zero).first.flatMap(
        Self.message))
    guard case .error(let binanceError) = try Self.provider(.binance).decode(refusal) else {
      Issue.record("not an error")
      return
    }
    #expect(binanceError.requestID == 5 && binanceError.message == "Invalid request: invalid stream")

    var coinbase = CoinbaseEmulator(script: SessionScript(steps: []), rules: CoinbaseRules())
    let subscriptions = try #require(
      coinbase.receive(.text(VenueDemoTests.subscription(.coinbase).message), at: .zero).first.flatMap(
        Self.message))
    guard case .acknowledged = try Self.provider(.coinbase).decode(subscriptions) else {
      Issue.record("not an acknowledgement")
      return
    }
    let invalid = try #require(
      coinbase.receive(
        .text(#"{"type":"subscribe","product_ids":["NOPE-USD"],"channels":["ticker"]}"#), at: .zero
      )
      .first.flatMap(Self.message))
    guard case .error(let venueError) = try Self.provider(.coinbase).decode(invalid) else {
      Issue.record("not an error")
      return
    }
    #expect(venueError.message.contains("NOPE-USD is not a valid product"))

    var krakenEmulator = KrakenEmulator(script: SessionScript(steps: []), rules: KrakenRules())
    let kraken = try Self.provider(.kraken)
    let pong = try #require(
      krakenEmulator.receive(.text(#"{"method":"ping"}"#), at: .zero).first.flatMap(Self.message))
    #expect(kraken.decode(pong) == .keepalive)
    let answers = krakenEmulator.receive(
      .text(
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["ETH/USD","NOPE/USD"]},"req_id":4}"#),
      at: .zero
    ).compactMap(Self.message)
    #expect(answers.count == 2)
    #expect(kraken.decode(answers[0]) == .acknowledged(id: 4))
    #expect(
      kraken.decode(answers[1])
        == .error(
          VenueError(
            message: "Currency pair not supported NOPE/USD", requestID: 4, fatal: false, symbol: "NOPE/USD")))
    #expect(kraken.decode(.text(KrakenWire.heartbeat)) == .keepalive)
    #expect(kraken.decode(.text(KrakenWire.status)) == .ignored("status"))
    var okx = OKXEmulator(script: SessionScript(steps: []), rules: OKXRules())
    let okxPong = try #require(okx.receive(.text("ping"), at: .zero).first.flatMap(Self.message))
    #expect(try Self.provider(.okx).decode(okxPong) == .keepalive)
    let subscribed = try #require(
      okx.receive(
        .text(#"{"id":"4","op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"}]}"#), at: .zero
      )
      .first.flatMap(Self.message))
    #expect(try Self.provider(.okx).decode(subscribed) == .acknowledged(id: 4))
    let unknown = try #require(
      okx.receive(
        .text(#"{"id":"5","op":"subscribe","args":[{"channel":"tickers","instId":"NOPE-USDT"}]}"#), at: .zero
      )
      .first.flatMap(Self.message))
    guard case .error(let okxError) = try Self.provider(.okx).decode(unknown) else {
      Issue.record("not an error")
      return
    }
    #expect(okxError.requestID == 5 && okxError.name == "60018" && okxError.symbol == "NOPE-USDT")
    #expect(!okxError.fatal)
  }
}

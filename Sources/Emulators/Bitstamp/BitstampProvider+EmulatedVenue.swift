import Recording
import TickerSupport
import Venues
import WebSocketWire

/// Bitstamp, as the emulator plays it (`BitstampEmulator`).
extension BitstampProvider: EmulatedVenue {
  typealias Rules = BitstampRules

  static var path: String { "/" }
  static var demoSession: String { DemoSession.bitstamp }
  static var untradedSymbol: String { "xlmeur" }
  /// Bitstamp acknowledges a market it does not list and sends nothing for it.
  static var refusesUnknownSymbols: Bool { false }
  static var demoPrices: [String] { ["79412", "79411", "79410", "79415", "79416"] }
  /// Its ping, and the time the emulation gives the pong.
  static func idleDeadline(_ rules: BitstampRules) -> Double? {
    rules.pingInterval.map { $0 + rules.pongTimeout }
  }
  static var blastOpcode: Opcode { .text }

  static func emulator(
    script: SessionScript, rules: BitstampRules, ending: ConnectionPlan.Ending, acceptAnySymbol: Bool
  ) -> any VenueEmulator {
    // Every well-formed market is acknowledged alike: `acceptAnySymbol` only lets the walk trade
    // the ones the script never did.
    BitstampEmulator(script: script, rules: rules)
  }

  /// A btcusd trade as Bitstamp sends it (every member, whole-dollar prices as Bitstamp writes
  /// BTC in USD, the size with 8 places and its float beside it, a microsecond time).
  static func blastMessage(_ i: Int) -> String {
    let price = String(79_412 + (i * 7919) % 2_000)
    let amount = SyntheticTrades.format(volume: 1 + (i * 104_729) % 5000, places: 8)
    return BitstampWire.trade(
      market: "btcusd", id: 412_093_400 + Int64(i), microseconds: (1_791_455_017_676 + Int64(i)) * 1000,
      price: price, priceNumber: price, amount: amount, amountNumber: BitstampWire.number(amount),
      buy: i % 2 == 0, buyOrder: 1_890_233_500_000_000 + 2 * Int64(i),
      sellOrder: 1_890_233_500_000_001 + 2 * Int64(i))
  }

  /// Seeds for the fuzz harness over the catalog (Fuzz/make-corpus.py adds every message of the
  /// demo session): edge cases of the venue's shapes, and symbols as a user might type them.
  static var fuzzSeeds: [(name: String, text: String)] {
    [
      (
        "trade-2019",
        #"{"data": {"microtimestamp": "1557000000123456", "amount": 0.0016429999999999999, "buy_order_id": 3251837478, "sell_order_id": 3251837511, "amount_str": "0.00164300", "price_str": "3651.30", "timestamp": "1557000000", "price": 3651.3000000000002, "type": 1, "id": 86998221}, "event": "trade", "channel": "live_trades_btcusd"}"#
      ),
      (
        "trade-floats-only",
        #"{"data":{"id":1,"timestamp":"1557000000","amount":1e-8,"price":3651.3000000000002,"type":0},"channel":"live_trades_btcusd","event":"trade"}"#
      ),
      (
        "trade-perpetual-ms",
        #"{"data":{"id":2001939623936278528,"id_str":"2001939623936278528","type":0,"sell_order_id":2050545352740993,"buy_order_id":2050545360601216,"amount":0.00921,"amount_str":"0.00921","price":77204,"price_str":"77204","microtimestamp":"1789456400586000","timestamp":"1789456400586"},"channel":"live_trades_btcusd-perp","event":"trade"}"#
      ),
      (
        "trade-nulls",
        #"{"data":{"id":2,"amount_str":null,"price_str":"0.68810","microtimestamp":null,"timestamp":1789456316},"channel":"live_trades_asterusd","event":"trade"}"#
      ),
      ("reconnect-null", #"{"event":"bts:request_reconnect","channel":"","data":null}"#),
      ("reconnect-empty", #"{"event":"bts:request_reconnect","channel":"","data":""}"#),
      (
        "error-json",
        #"{"event":"bts:error","channel":"","data":{"code":null,"message":"Incorrect JSON format."}}"#
      ),
      (
        "error-code",
        #"{"event":"bts:error","channel":"live_trades_nopeusd","data":{"code":4009,"message":"Invalid channel provided."}}"#
      ),
      ("heartbeat", #"{"event":"bts:heartbeat","channel":"","data":{"status":"success"}}"#),
      ("unsubscribed", #"{"event":"bts:unsubscription_succeeded","channel":"live_trades_btcusd","data":{}}"#),
      (
        "book",
        #"{"data":{"timestamp":"1789457617","microtimestamp":"1789457617906487","bids":[["77188","0.41122"]],"asks":[["77189","0.41124"]]},"channel":"order_book_btcusd","event":"data"}"#
      ),
      ("price-artefact", #"3651.3000000000002"#),
      ("markets", #"btcusd,BTCEUR,xrpusdt,,btc/usd,btcusd-perp,1inchusd,btcusd,usdcusd"#),
    ]
  }
}

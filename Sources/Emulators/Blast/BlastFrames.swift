import TickerSupport
import Venues
import WebSocketWire

/// Pre-framed one-trade Finnhub messages for load generation (~100 bytes each, as a live BTC
/// trade): distinct prices and times, so dedupe has real work in the default mode.
enum BlastFrames {
  static let messagesPerBatch = 1000
  static let symbol = "BINANCE:BTCUSDT"

  /// One batch of `messagesPerBatch` server frames, built once.
  static let batch: [UInt8] = frames(count: messagesPerBatch)

  /// Frames a hostile server mixes into its blast (`FeedServer.Options.hostileBlast`), none of
  /// them a price for the subscribed symbol: a 125-byte ping, a trade for a symbol nobody
  /// subscribed that is full of terminal controls and field separators, an error whose text is
  /// too, and a binary frame of garbage.
  static let hostile: [UInt8] = {
    let evil = #"EVIL\u001b[2J\u001b]0;pwned\u0007\tBINANCE:BTCUSDT\t1\n\u009b31m\u202e"#
    let trade = #"{"data":[{"c":null,"p":1,"s":"\#(evil)","t":1768655932976,"v":1}],"type":"trade"}"#
    let error = #"{"msg":"bad \u001b[31m\u0007symbol\r\n","type":"error"}"#
    return FrameEncoder.encodeServerFrame(Frame(opcode: .ping, payload: Array(repeating: 0x70, count: 125)))
      + FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(trade.utf8)))
      + FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(error.utf8)))
      + FrameEncoder.encodeServerFrame(Frame(opcode: .binary, payload: [0xFF, 0x00, 0x1B, 0x5B, 0x32, 0x4A]))
  }()

  /// `batch` followed by the `hostile` frames.
  static let hostileBatch: [UInt8] = batch + hostile

  /// `hostileBatch` or `batch`.
  static func batch(hostile: Bool) -> [UInt8] { hostile ? hostileBatch : batch }

  /// `count` consecutive frames.
  static func frames(count: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count * 110)
    for i in 0..<count {
      out += FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(message(i).utf8)))
    }
    return out
  }

  /// The i-th message: a price walking in cents around 95,000, a trade time 1 ms apart.
  static func message(_ i: Int) -> String {
    let cents = Int64(9_500_000 + (i * 7919) % 20_000)
    let price = SyntheticTrades.format(cents: cents)
    var out: [UInt8] = []
    FinnhubWire.appendTradeMessage(to: &out) { out in
      FinnhubWire.appendTrade(
        price: price.utf8, symbol: symbol, time: 1_768_655_932_976 + Int64(i), volume: "0.00063".utf8,
        to: &out)
    }
    return String(decoding: out, as: UTF8.self)
  }
}

extension BlastFrames {
  /// Builds `.mixedBlast` messages straight into frame bytes (`feedserve` builds them before it
  /// listens, `PrebuiltBlast`; a compressing connection builds them as it goes).
  struct Mixed: Sendable {
    let mix: BlastMix
    private let names: [String]
    private var rng: SplitMix64
    /// Price per symbol in hundredths.
    private var cents: [Int64]
    private var time: Int64

    init(_ mix: BlastMix) {
      self.mix = mix
      names = mix.symbolNames
      rng = SplitMix64(seed: mix.seed)
      var generator = SplitMix64(seed: mix.seed ^ 0x5EED)
      cents = (0..<mix.symbols).map { _ in 100 + Int64(generator.next() % 10_000_000) }
      time = mix.firstTime
    }

    /// The next `count` messages, framed, and the number of trades in them.
    mutating func frames(count: Int) -> (bytes: [UInt8], trades: Int) {
      var out: [UInt8] = []
      out.reserveCapacity(count * 64 * (mix.trades.lowerBound + mix.trades.upperBound))
      var trades = 0
      var payload: [UInt8] = []
      for _ in 0..<count {
        payload.removeAll(keepingCapacity: true)
        trades += message(into: &payload)
        out += FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: payload))
      }
      return (out, trades)
    }

    /// Draws the next message's trade count (the first random draw of each message).
    private mutating func nextCount() -> Int {
      let span = UInt64(mix.trades.upperBound - mix.trades.lowerBound + 1)
      return mix.trades.lowerBound + Int(rng.next() % span)
    }

    /// Draws the next trade: a symbol index and its new price.
    private mutating func nextTrade() -> (symbol: Int, cents: Int64) {
      let symbol = Int(rng.next() % UInt64(mix.symbols))
      // Steps of 1 to 50 cents either way: never the same price twice in a row.
      let step = Int64(1 + rng.next() % 50)
      var next = rng.next() & 1 == 0 ? cents[symbol] + step : cents[symbol] - step
      if next < 1 { next = cents[symbol] + step }
      cents[symbol] = next
      return (symbol, next)
    }

    /// Advances past one message exactly as `message(into:)` would; returns its trade count.
    mutating func skipMessage() -> Int {
      let count = nextCount()
      for _ in 0..<count {
        _ = nextTrade()
        _ = rng.next()  // the volume
      }
      time += Int64(count)
      return count
    }

    /// Appends one message's JSON; returns its number of trades.
    mutating func message(into out: inout [UInt8]) -> Int {
      let count = nextCount()
      var price: [UInt8] = []
      var volume: [UInt8] = []
      FinnhubWire.appendTradeMessage(to: &out) { out in
        for i in 0..<count {
          let (symbol, next) = nextTrade()
          if i > 0 { out.append(FinnhubWire.separator) }
          price.removeAll(keepingCapacity: true)
          Self.appendPrice(cents: next, to: &price)
          volume.removeAll(keepingCapacity: true)
          volume += "0.0".utf8
          Self.appendDecimal(Int64(1000 + rng.next() % 9000), to: &volume)
          FinnhubWire.appendTrade(price: price, symbol: names[symbol], time: time, volume: volume, to: &out)
          time += 1
        }
      }
      return count
    }

    /// The price as `SyntheticTrades.format(cents:)` writes it (no trailing zeros).
    static func appendPrice(cents: Int64, to out: inout [UInt8]) {
      appendDecimal(cents / 100, to: &out)
      let fraction = cents % 100
      if fraction == 0 { return }
      out.append(UInt8(ascii: "."))
      out.append(UInt8(ascii: "0") + UInt8(fraction / 10))
      if fraction % 10 != 0 { out.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }

    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
      precondition(value >= 0)
      if value < 10 {
        out.append(UInt8(ascii: "0") + UInt8(value))
        return
      }
      appendDecimal(value / 10, to: &out)
      out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
  }
}

import Venues
import WebSocketWire

/// The fan-out, pure: one batch of the upstream's quotes cut per client into Finnhub trade
/// messages of just its symbols, as ready-to-send frames. Clients that follow the same symbols
/// under the same names share one encoding.
struct ServeFanout {
  /// The most trade bytes one message to a client carries (a larger single trade goes alone):
  /// a batch can hold thousands of trades, and a client such as websocat refuses messages over
  /// 64 KiB by default, as it would a venue's.
  static let messageBytes = 16 << 10

  /// A client's symbols as quotes name them (venue and server spelling), and the name its
  /// trades give each (the venue-qualified name when the client asked so).
  typealias Symbols = [VenueSymbol: String]

  private let quotes: [Quote]
  /// Every quote's trade, encoded once, back to back; `ranges` says where each is.
  private var encoded: [UInt8] = []
  private var ranges: [Range<Int>] = []
  private var made: [Picked: [[UInt8]]] = [:]

  init(_ quotes: [Quote]) {
    self.quotes = quotes
    for quote in quotes {
      let start = encoded.count
      FinnhubWire.appendTrade(quote, to: &encoded)
      ranges.append(start..<encoded.count)
    }
  }

  /// The frames for a client following `symbols`: none when the batch holds none of them.
  mutating func frames(for symbols: Symbols) -> [[UInt8]] {
    let pick = picked(for: symbols)
    guard !pick.indices.isEmpty else { return [] }
    if let done = made[pick] { return done }
    let frames = build(pick)
    made[pick] = frames
    return frames
  }

  /// The quotes of the batch a client gets, and the names it gives them.
  private func picked(for symbols: Symbols) -> Picked {
    var pick = Picked()
    for index in quotes.indices {
      guard let name = symbols[VenueSymbol(venue: quotes[index].venue, server: quotes[index].symbol)] else {
        continue
      }
      if name != quotes[index].symbol { pick.rename(slot: pick.indices.count, to: name) }
      pick.indices.append(index)
    }
    return pick
  }

  /// `pick`'s trades in messages of about `messageBytes` at most.
  private func build(_ pick: Picked) -> [[UInt8]] {
    let picked = pick.indices
    // A trade a client asked for by its qualified name names it so (`coinbase/BTC-USD`).
    var renamed: [Int: ArraySlice<UInt8>] = [:]
    for (slot, name) in (pick.names ?? []).enumerated() {
      guard let name else { continue }
      var quote = quotes[picked[slot]]
      quote.symbol = name
      var bytes: [UInt8] = []
      FinnhubWire.appendTrade(quote, to: &bytes)
      renamed[slot] = bytes[...]
    }
    func trade(_ slot: Int) -> ArraySlice<UInt8> { renamed[slot] ?? encoded[ranges[picked[slot]]] }
    var built: [[UInt8]] = []
    var start = 0
    while start < picked.count {
      var end = start
      var bytes = 0
      while end < picked.count && (end == start || bytes + trade(end).count < Self.messageBytes) {
        bytes += trade(end).count + 1
        end += 1
      }
      let trades = (start..<end).map(trade)
      built.append(
        FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: FinnhubWire.tradeMessage(trades))))
      start = end
    }
    return built
  }

  /// The quotes of a batch one client gets, and the names it gives them (nil: as quoted).
  private struct Picked: Hashable {
    var indices: [Int] = []
    /// By slot in `indices`; nil while none is renamed (a client of unqualified symbols).
    var names: [String?]?

    mutating func rename(slot: Int, to name: String) {
      var list = names ?? []
      names = nil  // the only reference left: the appends below do not copy
      list.append(contentsOf: repeatElement(nil, count: max(0, slot - list.count)))
      list.append(name)
      names = list
    }
  }
}

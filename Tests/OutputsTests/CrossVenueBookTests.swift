import Testing

@testable import Outputs
@testable import TestSupport
@testable import Venues

/// The board of several venues following books (`--bid-ask`): per asset and currency the best
/// bid and the best ask with their venues, the spread between them, crossed or not; the premium
/// of mids.
@Suite struct CrossVenueBookTests {
  typealias T = CrossVenueBoardTests
  static let t0 = T.t0

  /// A book from `venue`, received `after` milliseconds after `t0`.
  static func book(_ venue: UInt8, _ symbol: String, bid: String, ask: String, after: Int64 = 0) -> Quote {
    var quote = Quote(
      symbol: symbol, bid: Price(bid)!, bidSize: Price("0.5"), ask: Price(ask)!, askSize: Price("1.25"),
      time: t0 + after, received: t0 + after + 5)
    quote.venue = venue
    return quote
  }

  /// Binance and OKX in USDT, a normal market: OKX has the best bid, Binance the best ask.
  static func normal() -> CrossVenueBoard {
    var board = T.board([(T.binance, "BTCUSDT"), (T.okx, "BTC-USDT")])
    board.receive(book(T.binance, "BTCUSDT", bid: "95000", ask: "95010"))
    board.receive(book(T.okx, "BTC-USDT", bid: "95004", ask: "95020", after: 100))
    return board
  }

  @Test("the best bid and the best ask with their venues, the spread between them exact, in basis points")
  func bestBidAndAsk() throws {
    let board = Self.normal()
    let book = try #require(board.book(asset: "BTC", quote: "USDT"))
    #expect(book.bid.text == "95004" && book.bidVenue == T.okx)
    #expect(book.ask.text == "95010" && book.askVenue == T.binance)
    // 6 × 20 000 / (95004 + 95010) = 0.6315… bp of the mid.
    #expect(book.difference.description == "6" && book.basisPoints?.description == "0.63")
    #expect(book.venues == 2 && !book.isCrossed)
  }

  @Test("one venue bidding above another's ask: crossed, the spread negative")
  func crossed() throws {
    var board = Self.normal()
    let changes = board.receive(Self.book(T.okx, "BTC-USDT", bid: "95012", ask: "95030", after: 200))
    let book = try #require(board.book(asset: "BTC", quote: "USDT"))
    #expect(changes == [.book(book)])
    #expect(book.bid.text == "95012" && book.bidVenue == T.okx)
    #expect(book.ask.text == "95010" && book.askVenue == T.binance)
    // −2 × 20 000 / (95012 + 95010) = −0.2105… bp.
    #expect(book.difference.description == "-2" && book.basisPoints?.description == "-0.21")
    #expect(book.isCrossed)
    // Locked (the best bid at the best ask) is not crossed.
    board.receive(Self.book(T.okx, "BTC-USDT", bid: "95010", ask: "95030", after: 300))
    let locked = try #require(board.book(asset: "BTC", quote: "USDT"))
    #expect(locked.difference.mantissa == 0 && !locked.isCrossed)
  }

  @Test("a book needs two venues; a book that changes neither best reports nothing")
  func bookChanges() {
    var board = T.board()
    #expect(board.receive(Self.book(T.binance, "BTCUSDT", bid: "100", ask: "101")).isEmpty)
    #expect(board.book(asset: "BTC", quote: "USDT") == nil)
    #expect(board.receive(Self.book(T.okx, "BTC-USDT", bid: "99", ask: "102")).count == 1)
    // OKX's book moved, but neither the best bid nor the best ask did.
    #expect(board.receive(Self.book(T.okx, "BTC-USDT", bid: "99.5", ask: "101.5", after: 10)).isEmpty)
    // Other currencies are books of their own.
    board.receive(Self.book(T.coinbase, "BTC-USD", bid: "90", ask: "91"))
    #expect(board.book(asset: "BTC", quote: "USD") == nil)
  }

  @Test("the KRW premium of mids: (bid + ask) / 2 of the won price, the rate and the USDT venues")
  func premiumOfMids() throws {
    var board = T.board([(T.upbit, "KRW-BTC"), (T.upbit, "KRW-USDT")])
    board.receive(Self.book(T.binance, "BTCUSDT", bid: "95000", ask: "95010"))  // mid 95005
    board.receive(Self.book(T.okx, "BTC-USDT", bid: "95004", ask: "95020"))  // mid 95012
    board.receive(Self.book(T.upbit, "KRW-BTC", bid: "142900000", ask: "143100000"))  // mid 143000000
    let changes = board.receive(Self.book(T.upbit, "KRW-USDT", bid: "1449", ask: "1451", after: 200))
    let premium = try #require(board.premium(of: board.rows[0]))
    #expect(changes == [.premium(premium)])
    #expect(premium.price.text == "143000000" && premium.rate.text == "1450")
    // The median of the mids 95005 and 95012.
    #expect(premium.reference.description == "95008.5" && premium.referenceVenues == 2)
    // 143000000 / 1450 = 98620.689…; (98620.689… − 95008.5) / 95008.5 × 100 = 3.8019…
    #expect(premium.converted.description == "98620.69" && premium.percent.description == "3.80")
  }

  @Test("the change follows the mid: exact, one digit more where the mid needs it")
  func changeOfMids() throws {
    var board = T.board()
    board.receive(Self.book(T.binance, "BTCUSDT", bid: "95000.10", ask: "95000.30"))  // 95000.20
    board.receive(Self.book(T.binance, "BTCUSDT", bid: "95000.20", ask: "95000.45"))  // 95000.325
    let row = board.rows[0]
    #expect(row.current?.text == "95000.325" && row.first?.text == "95000.20")
    #expect(row.change?.absolute == "+0.125" && row.direction == .up)
  }
}

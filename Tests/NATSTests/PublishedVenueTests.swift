import Testing
import Venues

@testable import NATS
@testable import NATSBridge

@Suite("PublishedVenue: a venue's prices read back from NATS")
struct PublishedVenueTests {
  static let binance = PublishedVenue(BinanceProvider())

  @Test("the published JSON line gives back the quote exactly, received time included")
  func decodesWhatWasPublished() {
    let line =
      #"{"symbol":"BTCUSDT","price":78860.00000000,"time":"2026-09-14T16:52:56.250Z","t":1789404776250,"volume":0.00100000,"received":"2026-09-14T16:52:56.300Z","rt":1789404776300,"provider":"binance"}"#
    let event = Self.binance.decode(.binary(Array(line.utf8)))
    guard case .quotes(let quotes) = event, let quote = quotes.first else {
      Issue.record("\(event)")
      return
    }
    #expect(quotes.count == 1)
    #expect(quote.symbol == "BTCUSDT")
    #expect(quote.price.text == "78860.00000000")
    #expect(quote.volume?.text == "0.00100000")
    #expect(quote.time == 1_789_404_776_250)
    #expect(quote.received == 1_789_404_776_300)
  }

  @Test("a published best bid and ask is read back exactly, from its own subjects")
  func topOfBook() {
    let line =
      #"{"symbol":"BTCUSDT","bid":97250.01000000,"bid_size":3.41877000,"ask":97250.02000000,"ask_size":null,"time":"2026-12-06T03:07:14.195Z","t":1796526434195,"received":"2026-12-06T03:07:14.200Z","rt":1796526434200,"provider":"binance"}"#
    let venue = PublishedVenue(BinanceProvider()).topOfBook!
    #expect(venue.stream == .topOfBook)
    let event = venue.decode(.binary(Array(line.utf8)))
    #expect(
      event
        == .quotes([
          Quote(
            symbol: "BTCUSDT", bid: Price("97250.01000000")!, bidSize: Price("3.41877000"),
            ask: Price("97250.02000000")!, askSize: nil, time: 1_796_526_434_195, received: 1_796_526_434_200)
        ]))
    if case .quotes(let quotes) = event { #expect(quotes.first?.ask?.price.text == "97250.02000000") }
    var ids = RequestIDs(prefix: "t")
    #expect(
      venue.subscriptionMessages(from: [], to: ["BTCUSDT"], ids: &ids) == [
        .text("SUB ticker.book.binance.BTCUSDT")
      ])
    #expect(
      Self.binance.subscriptionMessages(from: [], to: ["BTCUSDT"], ids: &ids) == [
        .text("SUB ticker.binance.BTCUSDT")
      ])
    let broken = #"{"symbol":"A","bid":1,"ask":"x","t":1}"#
    if case .malformed = venue.decode(.binary(Array(broken.utf8))) {
    } else {
      Issue.record("accepted \(broken)")
    }
    let badSize = #"{"symbol":"A","bid":1,"ask":2,"bid_size":"x","t":1}"#
    if case .malformed = venue.decode(.binary(Array(badSize.utf8))) {
    } else {
      Issue.record("accepted \(badSize)")
    }
  }

  @Test("null volume and received are taken as absent")
  func nulls() {
    let line =
      #"{"symbol":"BTCUSDT","price":1.5,"t":7,"volume":null,"received":null,"rt":null,"provider":"binance"}"#
    #expect(
      Self.binance.decode(.binary(Array(line.utf8)))
        == .quotes([Quote(symbol: "BTCUSDT", price: Price("1.5")!, time: 7)]))
  }

  @Test(
    "what is not a published price is said so, never a quote",
    arguments: [
      ("nope", "not JSON"), ("[1]", "not a JSON object"), (#"{"price":1,"t":1}"#, "no \"symbol\" string"),
      (#"{"symbol":"A","price":"1","t":1}"#, "no \"price\" number"),
      (#"{"symbol":"A","price":1,"t":1.5}"#, "no \"t\" whole number"),
      (#"{"symbol":"A","price":1,"t":1,"volume":"x"}"#, "\"volume\" is not a number"),
      (#"{"symbol":"A","price":1,"t":1,"rt":true}"#, "\"rt\" is not a whole number"),
    ])
  func malformed(line: String, why: String) {
    guard case .malformed(let said) = Self.binance.decode(.binary(Array(line.utf8))) else {
      Issue.record("not malformed: \(line)")
      return
    }
    #expect(said.hasPrefix(why), "\(said)")
  }

  @Test("another venue's price on the subject is ignored")
  func otherVenue() {
    let line = #"{"symbol":"BTCUSDT","price":1,"t":1,"provider":"okx"}"#
    #expect(Self.binance.decode(.binary(Array(line.utf8))) == .ignored("a price of okx"))
  }

  @Test("subscriptions are the subjects --publish uses, escaped the same way")
  func subjects() {
    var ids = RequestIDs(prefix: "t")
    #expect(
      Self.binance.subscriptionMessages(from: [], to: ["BTCUSDT", "ETHUSDT"], ids: &ids) == [
        .text("SUB ticker.binance.BTCUSDT"), .text("SUB ticker.binance.ETHUSDT"),
      ])
    #expect(
      Self.binance.subscriptionMessages(from: ["BTCUSDT", "ETHUSDT"], to: ["ETHUSDT", "SOLUSDT"], ids: &ids)
        == [
          .text("UNSUB ticker.binance.BTCUSDT"), .text("SUB ticker.binance.SOLUSDT"),
        ])
    let finnhub = PublishedVenue(FinnhubProvider())
    #expect(
      finnhub.subscriptionMessages(from: [], to: ["IC MARKETS:1"], ids: &ids) == [
        .text("SUB ticker.finnhub.IC_20MARKETS:1")
      ])
    #expect(finnhub.name == "finnhub")
  }

  @Test("a server's -ERR, handed over as a text message, is a venue error that does not end the run")
  func serverError() {
    #expect(
      Self.binance.decode(.text("NATS: the server answered 'Permissions Violation'"))
        == .error(VenueError(message: "NATS: the server answered 'Permissions Violation'", fatal: false)))
  }
}

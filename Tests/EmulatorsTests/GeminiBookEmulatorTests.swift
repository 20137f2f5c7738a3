import Testing
import Venues

@testable import Emulators
@testable import JSON
@testable import Recording
@testable import TestSupport

/// Gemini's book as the emulation moves it: after each synthetic trade, the `l2_updates` that
/// brings the book's best bid and ask to the walk, so that the top of book follows it.
@Suite("FeedServer: Gemini emulation, the book around the walk (pure)")
struct GeminiBookEmulatorTests {
  @Test("moving the top removes the levels that would cross it and sets the two; nothing when there already")
  func moveTop() throws {
    var book = GeminiBook(
      changes: try JSONParser().parse(
        #"[["buy","100.00","1"],["buy","99.00","2"],["buy","98.00","3"],["sell","101.00","1"],["sell","102.00","2"]]"#
      ))
    let changes = book.moveTop(
      bid: GeminiBook.Level(price: "98.50", quantity: "0.5"),
      ask: GeminiBook.Level(price: "101.50", quantity: "4"))
    #expect(
      changes.serialized
        == #"[["buy","100.00","0"],["buy","99.00","0"],["buy","98.50","0.5"],["sell","101.00","0"],["sell","101.50","4"]]"#
    )
    #expect(book.bids.map(\.price) == ["98.50", "98.00"] && book.asks.map(\.price) == ["101.50", "102.00"])
    #expect(
      book.moveTop(
        bid: GeminiBook.Level(price: "98.50", quantity: "0.5"),
        ask: GeminiBook.Level(price: "101.50", quantity: "4")
      ) == .array([]))
    // A size alone.
    #expect(
      book.moveTop(
        bid: GeminiBook.Level(price: "98.50", quantity: "0.7"),
        ask: GeminiBook.Level(price: "101.50", quantity: "4")
      ).serialized == #"[["buy","98.50","0.7"]]"#)
  }

  @Test(
    "each synthetic trade is followed by its book changes; through the book provider, the top is the walk's")
  func walk() throws {
    var gemini = try GeminiEmulatorTests.emulator(acceptAnySymbol: true)
    let first = GeminiEmulatorTests.texts(
      gemini.receive(.text(GeminiEmulatorTests.request("subscribe", ["FILUSD"])), at: .zero))
    let provider = try #require(GeminiProvider().topOfBook)
    var context = DecodingContext()
    context.historyDue = ["FILUSD"]
    // An unknown symbol's first book is empty: nothing to print yet.
    #expect(first.map { provider.decode(.text($0), context: &context) } == [.quotes([])])
    var walk = SyntheticTrades(seed: 11, start: gemini.lastPrices)
    walk.admit("FILUSD", from: try #require(gemini.walkStart(for: "FILUSD")))
    var quotes = 0
    for _ in 0..<30 {
      let trades = walk.nextTrades(symbols: gemini.subscribed, elapsedMilliseconds: 150)
      let texts = GeminiEmulatorTests.texts(gemini.synthetic(trades))
      var index = 0
      for trade in trades {
        // The trade, not printed for the book, then the changes that move the top to the walk.
        #expect(provider.decode(.text(texts[index]), context: &context) == .ignored("trade"))
        index += 1
        guard index < texts.count, texts[index].hasPrefix(#"{"type":"l2_updates""#) else { continue }
        let event = provider.decode(.text(texts[index]), context: &context)
        index += 1
        let book = trade.book
        let expected = (
          SyntheticTrades.format(cents: book.bidCents, places: 2),
          SyntheticTrades.format(cents: book.askCents, places: 2)
        )
        #expect(
          event.quotes.map { ($0.bid.text, $0.ask?.price.text ?? "") }.first.map { $0 == expected } == true,
          "\(event)")
        #expect(event.quotes.allSatisfy { $0.bid < $0.ask!.price })
        quotes += event.quotes.count
      }
      #expect(index == texts.count)
    }
    #expect(quotes >= 30)
  }
}

import Foundation
import TestSupport
import Testing

/// The board following books (`--asset BTC --demo --board --bid-ask`) as a person sees it: the
/// built `ticker` in tmux, the screen read back. The venues expected are the catalog's with a
/// top of book; with several, each currency's title names its best bid and best ask. Every wait
/// polls the screen with a bound; nothing sleeps and nothing is timed.
@Suite("the board of books on a terminal (tmux)", .requires(.tmux))
struct BidAskBoardTerminalTests {
  typealias C = CrossVenueBoardTerminalTests

  /// What `--asset BTC --demo --bid-ask` follows: the venues with a top of book.
  static var members: [AssetMarkets.Member] { AssetMarkets.members().filter { $0.provider.topOfBook != nil } }

  static func venues(quotedIn currency: String) -> [String] {
    members.filter { $0.quote == currency }.map(\.provider.displayName).sorted()
  }

  static var currencies: [String] { Array(Set(members.map(\.quote))).sorted() }

  /// A row's bid, ask and basis points: the three numbers after its arrow.
  static func book(_ row: String) -> (bid: Decimal, ask: Decimal, bps: Decimal)? {
    let fields = row.split(separator: " ")
    guard let arrow = fields.firstIndex(where: { ["▲", "▼", "•"].contains($0) }), arrow + 3 < fields.count,
      let bid = C.decimal(fields[arrow + 1]), let ask = C.decimal(fields[arrow + 2]),
      let bps = C.decimal(fields[arrow + 3])
    else { return nil }
    return (bid, ask, bps)
  }

  /// `(ask − bid) / mid × 10 000`, as a Double.
  static func basisPoints(bid: Decimal, ask: Decimal) -> Double {
    NSDecimalNumber(decimal: (ask - bid) * 20_000 / (ask + bid)).doubleValue
  }

  /// The title a currency's group starts with.
  static func title(_ currency: String) -> String {
    if venues(quotedIn: currency).count > 1 { return "BTC · \(currency) · best bid " }
    return currency == "KRW" ? "BTC · KRW · premium" : "BTC · \(currency) · one venue"
  }

  /// `… · best bid 95004.5 OKX, best ask 95010.00 Binance · spread 5.50 (0.58 bp)[ · CROSSED]`.
  static func best(_ title: String) -> (
    bid: Decimal, bidVenue: String, ask: Decimal, askVenue: String,
    spread: Decimal, crossed: Bool
  )? {
    guard let range = title.range(of: " · best bid ") else { return nil }
    let words = title[range.upperBound...].split(separator: " ")
    guard words.count >= 9, let bid = C.decimal(words[0]), let ask = C.decimal(words[4]),
      let spread = C.decimal(words[8])
    else { return nil }
    return (bid, String(words[1].dropLast()), ask, String(words[5]), spread, title.hasSuffix(" · CROSSED"))
  }

  /// Every group drawn with a book in each row.
  static func complete(_ screen: [String]) -> Bool {
    currencies.allSatisfy { currency in
      guard let group = C.group(title(currency), in: screen) else { return false }
      return group.rows.count == venues(quotedIn: currency).count && group.rows.allSatisfy { book($0) != nil }
    }
  }

  @Test("--asset BTC --demo --board --bid-ask: bid, ask and bps per venue; each currency's best bid and ask")
  func board() async throws {
    try #require(!Self.members.isEmpty)
    try await TmuxSession.with(columns: 160, rows: 32) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --asset BTC --demo --board --bid-ask; echo EXIT=$?")
      if Self.members.count == 1 {
        try await oneVenue(tmux)
      } else {
        try await severalVenues(tmux)
      }
      await tmux.keys("C-c")
      let printed = await BoardTerminalTests().expectRestored(tmux, exit: 130)
      #expect(printed.isEmpty, "written to the normal screen: \(printed)")
    }
  }

  /// One venue with a book: the one-venue board, its row's bid below its ask.
  func oneVenue(_ tmux: TmuxSession) async throws {
    let symbol = Self.members[0].main
    let shown = await tmux.waitForScreen { screen in
      screen.contains { $0.hasPrefix(symbol + " ") && Self.book($0) != nil }
    }
    let screen = try #require(shown, "no book shown: \(tmux.screen())")
    #expect(screen[0].hasPrefix("SYMBOL ") && screen[0].contains(" BID ") && screen[0].contains(" ASK "))
    let book = try #require(screen.first { $0.hasPrefix(symbol + " ") }.flatMap(Self.book))
    #expect(book.bid < book.ask, "\(screen)")
    #expect(
      abs(Self.basisPoints(bid: book.bid, ask: book.ask) - NSDecimalNumber(decimal: book.bps).doubleValue)
        <= 0.005)
  }

  /// Several: grouped by currency, each row a book, each title its best bid and ask with their
  /// venues, the spread between them, CROSSED exactly when the best bid is above the best ask.
  func severalVenues(_ tmux: TmuxSession) async throws {
    let shown = await tmux.waitForScreen { Self.complete($0) }
    let screen = try #require(shown, "the board never showed every venue's book: \(tmux.screen())")
    #expect(screen[0].hasPrefix("  VENUE ") && screen[0].contains(" BID ") && screen[0].contains(" ASK "))
    for currency in Self.currencies {
      let group = try #require(C.group(Self.title(currency), in: screen), "\(currency): \(screen)")
      #expect(group.rows.map(C.venue).sorted() == Self.venues(quotedIn: currency), "\(group)")
      var books: [(venue: String, bid: Decimal, ask: Decimal)] = []
      for row in group.rows {
        let book = try #require(Self.book(row), "\(row)")
        let bps = NSDecimalNumber(decimal: book.bps).doubleValue
        #expect(
          book.bid < book.ask && abs(Self.basisPoints(bid: book.bid, ask: book.ask) - bps) <= 0.005, "\(row)")
        books.append((C.venue(row), book.bid, book.ask))
      }
      guard books.count > 1 else { continue }
      let best = try #require(Self.best(group.title), "\(group.title)")
      let highest = books.map(\.bid).max()!
      let lowest = books.map(\.ask).min()!
      #expect(
        best.bid == highest && books.contains { $0.venue == best.bidVenue && $0.bid == highest }, "\(group)")
      #expect(
        best.ask == lowest && books.contains { $0.venue == best.askVenue && $0.ask == lowest }, "\(group)")
      #expect(best.spread == lowest - highest && best.crossed == (highest > lowest), "\(group)")
    }
  }
}

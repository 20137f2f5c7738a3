import Foundation
import TestSupport
import Testing

/// The board of several venues (`--asset BTC --demo --board`) as a person sees it: the built
/// `ticker` in tmux, the screen read back. Every wait polls the screen with a bound; nothing
/// sleeps and nothing is timed.
@Suite("the cross-venue board on a terminal (tmux)", .requires(.tmux))
struct CrossVenueBoardTerminalTests {
  /// A currency's group: its title line and its venue rows (the indented lines after it).
  static func group(_ title: String, in screen: [String]) -> (title: String, rows: [String])? {
    guard let start = screen.firstIndex(where: { $0.hasPrefix(title) }) else { return nil }
    let rows = screen[(start + 1)...].prefix { $0.hasPrefix("  ") }
    return (screen[start], Array(rows))
  }

  /// The venue a row is of (its first word).
  static func venue(_ row: String) -> String { String(row.split(separator: " ").first ?? "") }

  static func price(_ row: String) -> Decimal? {
    BoardTerminalTests.price(row).flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
  }

  static func decimal(_ text: some StringProtocol) -> Decimal? {
    Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX"))
  }

  /// The title a currency's group starts with: its spread where several venues quote in it, else
  /// its premium where it is converted (the won), else that one venue is all it has.
  static func title(_ currency: String) -> String {
    if AssetMarkets.venues(quotedIn: currency).count > 1 { return "BTC · \(currency) · spread " }
    return currency == "KRW" ? "BTC · KRW · premium" : "BTC · \(currency) · one venue"
  }

  /// The currencies of the catalog's main BTC markets.
  static var currencies: [String] { Array(Set(AssetMarkets.members().map(\.quote))).sorted() }

  /// Every group drawn, each venue with a price, each premium and each rate shown.
  static func complete(_ screen: [String]) -> Bool {
    var rows: [String] = []
    for currency in currencies {
      guard let group = group(title(currency), in: screen) else { return false }
      rows += group.rows
    }
    guard let rates = group("RATES", in: screen), let krw = group(title("KRW"), in: screen) else {
      return false
    }
    return (rows + rates.rows).allSatisfy { price($0) != nil }
      && krw.rows.allSatisfy { $0.contains("USDT converted, rate ") }
  }

  /// `spread 541.23 (0.69%): high OKX, low Binance` → (541.23, OKX, Binance).
  static func spread(_ title: String) -> (difference: Decimal, high: String, low: String)? {
    guard let range = title.range(of: " · spread ") else { return nil }
    let words = title[range.upperBound...].split(separator: " ")
    guard words.count == 6, let difference = decimal(words[0]) else { return nil }
    return (difference, String(words[3].dropLast()), String(words[5]))
  }

  /// The seconds between a row's trade time (`HH:MM:SS.mmm`, UTC) and this machine's clock,
  /// either way round midnight; nil when the row shows none.
  static func age(_ row: String) -> Double? {
    let words = row.split(separator: " ").map(String.init)
    guard let time = words.first(where: { $0.count == 12 && Array($0)[8] == "." }) else { return nil }
    let parts: [Double] = time.split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Double($0) }
    guard parts.count == 4 else { return nil }
    let shown = parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000
    let now = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
    let difference = abs(now - shown)
    return min(difference, 86_400 - difference)
  }

  @Test(
    "--asset BTC --demo --board: a row per venue, each currency apart with its spread, each KRW premium and its rate"
  )
  func board() async throws {
    try await TmuxSession.with(columns: 160, rows: 32) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --asset BTC --demo --board; echo EXIT=$?")
      let shown = await tmux.waitForScreen { Self.complete($0) }
      guard let screen = shown else {
        Issue.record("the board never showed every venue: \(tmux.screen())")
        return
      }
      #expect(screen[0].hasPrefix("  VENUE "), "\(screen)")
      let status = try #require(screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
      #expect(status.contains("(demo) · connected · \(AssetMarkets.symbolCount) symbols · "), "\(screen)")

      // Each currency apart: each group holds its own venues, and its spread is its highest
      // price against its lowest, exactly.
      for currency in Self.currencies {
        let group = try #require(Self.group(Self.title(currency), in: screen), "\(currency): \(screen)")
        #expect(group.rows.map(Self.venue).sorted() == AssetMarkets.venues(quotedIn: currency), "\(group)")
        #expect(group.rows.allSatisfy { (Self.age($0) ?? .infinity) < 120 }, "trading now: \(group)")
        guard group.rows.count > 1 else { continue }
        let prices = Dictionary(uniqueKeysWithValues: group.rows.map { (Self.venue($0), Self.price($0)!) })
        let spread = try #require(Self.spread(group.title), "\(group.title)")
        #expect(prices[spread.high] == prices.values.max() && prices[spread.low] == prices.values.min())
        #expect(prices[spread.high]! - prices[spread.low]! == spread.difference, "\(group)")
        // One market: the venues of a currency a few basis points apart.
        #expect(spread.difference / prices[spread.low]! < 0.001, "\(group)")
      }

      // Each won price converted with its venue's rate shown below, marked as converted, with the
      // rate's age, against the median of the USDT prices; each premium in its band.
      let usdt = try #require(Self.group(Self.title("USDT"), in: screen)).rows.map { Self.price($0)! }
        .sorted()
      let median =
        usdt.count % 2 == 1 ? usdt[usdt.count / 2] : (usdt[usdt.count / 2 - 1] + usdt[usdt.count / 2]) / 2
      let krw = try #require(Self.group(Self.title("KRW"), in: screen))
      if krw.rows.count == 1 {
        #expect(krw.title.contains("against the median of \(usdt.count) USDT prices"), "\(krw.title)")
      }
      #expect(krw.rows.map(Self.venue).sorted() == AssetMarkets.venues(quotedIn: "KRW"), "\(krw)")
      let rates = try #require(Self.group("RATES", in: screen)).rows
      for row in krw.rows {
        let rateRow = try #require(rates.first { Self.venue($0) == Self.venue(row) }, "\(rates)")
        #expect(
          rateRow.contains("KRW-USDT") && rateRow.contains("1 USDT in KRW, ") && rateRow.hasSuffix(" old"))
        let note = try #require(
          row.range(of: "% (").map { row[..<$0.lowerBound] }?.split(separator: " ").last)
        let converted = try #require(
          row.range(of: "% (").map { row[$0.upperBound...].split(separator: " ")[0] })
        let exact = Self.price(row)! / Self.price(rateRow)!
        #expect(
          abs(NSDecimalNumber(decimal: exact - Self.decimal(converted)!).doubleValue) <= 0.005, "\(row)")
        let premium = NSDecimalNumber(decimal: (exact - median) / median * 100).doubleValue
        #expect(abs(premium - Double(String(note))!) <= 0.005, "\(row) against \(median)")
        // A premium in the band the won has traded in.
        #expect(premium > 0 && premium < 4, "\(row)")
      }

      await tmux.keys("C-c")
      let printed = await BoardTerminalTests().expectRestored(tmux, exit: 130)
      #expect(printed.isEmpty, "written to the normal screen: \(printed)")
    }
  }
}

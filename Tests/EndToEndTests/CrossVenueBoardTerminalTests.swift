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

  /// Every group drawn, each venue with a price, the premium and the rate shown.
  static func complete(_ screen: [String]) -> Bool {
    guard let usdt = group("BTC · USDT · spread ", in: screen),
      let usd = group("BTC · USD · spread ", in: screen),
      let krw = group("BTC · KRW · premium", in: screen), let rates = group("RATES", in: screen)
    else { return false }
    return (usdt.rows + usd.rows + krw.rows + rates.rows).allSatisfy { price($0) != nil }
      && krw.rows.first?.contains("USDT converted, rate ") == true
  }

  /// `spread 541.23 (0.69%): high OKX, low Binance` → (541.23, OKX, Binance).
  static func spread(_ title: String) -> (difference: Decimal, high: String, low: String)? {
    guard let range = title.range(of: " · spread ") else { return nil }
    let words = title[range.upperBound...].split(separator: " ")
    guard words.count == 6, let difference = decimal(words[0]) else { return nil }
    return (difference, String(words[3].dropLast()), String(words[5]))
  }

  @Test(
    "--asset BTC --demo --board: a row per venue, USD and USDT apart with their spreads, the KRW premium and its rate"
  )
  func board() async throws {
    try await TmuxSession.with(columns: 160, rows: 20) { tmux in
      #expect(await tmux.waitForPrompt())
      await tmux.type("echo BEFORE; $T --asset BTC --demo --board; echo EXIT=$?")
      let shown = await tmux.waitForScreen { Self.complete($0) }
      guard let screen = shown else {
        Issue.record("the board never showed every venue: \(tmux.screen())")
        return
      }
      #expect(screen[0].hasPrefix("  VENUE "), "\(screen)")
      #expect(screen[19].contains("(demo) · connected · 7 symbols · "), "\(screen)")

      // USDT and USD apart: each group holds its own venues, and its spread is its highest
      // price against its lowest, exactly.
      for (title, venues) in [
        ("BTC · USDT · spread ", ["Binance", "OKX"]),
        ("BTC · USD · spread ", ["Coinbase", "Gemini", "Kraken"]),
      ] {
        let group = try #require(Self.group(title, in: screen))
        #expect(group.rows.map(Self.venue).sorted() == venues, "\(group)")
        let prices = Dictionary(uniqueKeysWithValues: group.rows.map { (Self.venue($0), Self.price($0)!) })
        let spread = try #require(Self.spread(group.title), "\(group.title)")
        #expect(prices[spread.high] == prices.values.max() && prices[spread.low] == prices.values.min())
        #expect(prices[spread.high]! - prices[spread.low]! == spread.difference, "\(group)")
      }

      // The KRW price converted with the rate shown below, marked as converted, with the rate's age.
      let krw = try #require(Self.group("BTC · KRW · premium", in: screen))
      #expect(krw.title.contains("against the median of 2 USDT prices"))
      let upbit = try #require(krw.rows.first)
      #expect(Self.venue(upbit) == "Upbit" && upbit.contains("KRW-BTC"))
      let rateRow = try #require(Self.group("RATES", in: screen)?.rows.first)
      #expect(
        rateRow.contains("KRW-USDT") && rateRow.contains("1 USDT in KRW, ") && rateRow.hasSuffix(" old"))
      let note = try #require(
        upbit.range(of: "% (").map { upbit[..<$0.lowerBound] }?.split(separator: " ").last)
      let converted = try #require(
        upbit.range(of: "% (").map { upbit[$0.upperBound...].split(separator: " ")[0] })
      let exact = Self.price(upbit)! / Self.price(rateRow)!
      #expect(
        abs(NSDecimalNumber(decimal: exact - Self.decimal(converted)!).doubleValue) <= 0.005, "\(upbit)")
      let usdt = try #require(Self.group("BTC · USDT · spread ", in: screen)).rows.map { Self.price($0)! }
        .sorted()
      let median = (usdt[0] + usdt[1]) / 2
      let premium = NSDecimalNumber(decimal: (exact - median) / median * 100).doubleValue
      #expect(abs(premium - Double(String(note))!) <= 0.005, "\(upbit) against \(median)")

      await tmux.keys("C-c")
      let printed = await BoardTerminalTests().expectRestored(tmux, exit: 130)
      #expect(printed.isEmpty, "written to the normal screen: \(printed)")
    }
  }
}

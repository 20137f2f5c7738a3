import Synchronization
import Testing
import Venues

@testable import Emulators

/// The demo's one market: every venue of the catalog priced from one walk per asset.
@Suite("DemoMarket: one walk for every venue")
struct DemoMarketTests {
  static let start: Int64 = 1_800_000_000_000

  /// Every catalog venue's main BTC market, by quote currency, with its price at `time`.
  static func mainMarkets(_ market: DemoMarket, at time: Int64) -> [String: [(venue: String, price: Double)]]
  {
    var groups: [String: [(venue: String, price: Double)]] = [:]
    for provider in ProviderCatalog.all {
      guard let symbol = provider.mainMarket(for: "BTC"), let named = provider.market(of: symbol) else {
        continue
      }
      let price = Double(market.cents(of: named, venue: provider.name, at: time)) / 100
      groups[named.quote, default: []].append((provider.name, price))
    }
    return groups
  }

  @Test(
    "within a currency the venues are a few basis points apart; the won's premium is 0 to 4 % on each won venue"
  )
  func spreadsAndPremiums() throws {
    let market = DemoMarket(clock: { Self.start })
    // Over an hour of the walk, a minute apart.
    for minute in Int64(0)..<60 {
      let time = Self.start + minute * 60_000
      let groups = Self.mainMarkets(market, at: time)
      for (quote, venues) in groups {
        let prices = venues.map(\.price)
        #expect(prices.max()! / prices.min()! - 1 < 0.0006, "\(quote) at minute \(minute): \(venues)")
      }
      let usdt = try #require(groups["USDT"]).map(\.price).sorted()
      let median = usdt[usdt.count / 2]
      for provider in ProviderCatalog.all {
        guard let pair = provider.conversionPair(for: "KRW"), let symbol = provider.mainMarket(for: "BTC"),
          let rate = provider.market(of: pair), let won = provider.market(of: symbol)
        else { continue }
        let converted =
          Double(market.cents(of: won, venue: provider.name, at: time))
          / Double(market.cents(of: rate, venue: provider.name, at: time))
        let premium = converted / median - 1
        #expect(premium > 0 && premium < 0.04, "\(provider.name) at minute \(minute): \(premium)")
      }
    }
    // The dollar and USDT are apart: USDT a little under the dollar, so BTC a little over in it.
    let groups = Self.mainMarkets(market, at: Self.start)
    let usd = try #require(groups["USD"]).map(\.price)
    let usdt = try #require(groups["USDT"]).map(\.price)
    #expect(usdt.min()! > usd.max()!, "\(groups)")
  }

  @Test("the walk is the seed's and the time's alone: asked in another order, the same prices")
  func orderFree() {
    let asked = DemoMarket(clock: { Self.start })
    let other = DemoMarket(clock: { Self.start })
    let btc = Market(base: "BTC", quote: "USD")
    let eth = Market(base: "ETH", quote: "KRW")
    let times = (1...20).map { Self.start + Int64($0) * 1_000 }
    let first = times.map {
      (asked.cents(of: btc, venue: "a", at: $0), asked.cents(of: eth, venue: "b", at: $0))
    }
    // The other market is asked about ETH first, BTC only later.
    let eths = times.map { other.cents(of: eth, venue: "b", at: $0) }
    let btcs = times.map { other.cents(of: btc, venue: "a", at: $0) }
    #expect(first.map(\.0) == btcs)
    #expect(first.map(\.1) == eths)
    // Another seed, another walk.
    let seeded = DemoMarket(seed: 7, clock: { Self.start })
    #expect(times.map { seeded.cents(of: btc, venue: "a", at: $0) } != btcs)
  }

  @Test("the walk moves, and stays near where it began over an hour")
  func moves() {
    let market = DemoMarket(clock: { Self.start })
    let btc = Market(base: "XBT", quote: "USD")
    let prices = (0..<60).map { market.cents(of: btc, venue: "v", at: Self.start + Int64($0) * 60_000) }
    #expect(Set(prices).count > 50)
    #expect(prices.allSatisfy { abs(Double($0) / Double(prices[0]) - 1) < 0.05 }, "\(prices)")
  }

  @Test("a connection's trades: stamped with the market's time, each later than the one before, priced by it")
  func trades() {
    let now = Mutex<Int64>(Self.start)
    let market = DemoMarket(clock: { now.withLock { $0 } })
    var trades = MarketTrades(seed: 1)
    let tradable = [
      MarketTrades.Tradable(symbol: "BTC-USD", market: Market(base: "BTC", quote: "USD")),
      MarketTrades.Tradable(symbol: "AAPL", market: nil, start: 23_456),
    ]
    var seen: [SyntheticTrade] = []
    for step in 0..<50 {
      // The clock stands still for a while, then jumps: times still only go up.
      if step % 10 == 0 { now.withLock { $0 += 5_000 } }
      seen += trades.next(tradable, venue: "v", in: market)
    }
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.time < $1.time })
    #expect(seen.allSatisfy { $0.time > Self.start })
    let apple = seen.filter { $0.symbol == "AAPL" }.map(\.cents)
    #expect(!apple.isEmpty && apple.allSatisfy { abs($0 - 23_456) < 200 }, "\(apple)")
    // The walks only go forward: a replica asked in time order says what each price was made from.
    let replica = DemoMarket(clock: { Self.start })
    let bitcoin = seen.filter { $0.symbol == "BTC-USD" }
    #expect(
      bitcoin.allSatisfy { trade in
        let mark = replica.cents(of: Market(base: "BTC", quote: "USD"), venue: "v", at: trade.time)
        return abs(Double(trade.cents - mark)) <= Double(mark) * 0.00011 + 1
      })
  }
}

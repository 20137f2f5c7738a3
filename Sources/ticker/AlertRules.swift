import CLI
import FeedRuntime
import Outputs
import Venues

/// `--alert` and `--until` as the feeds take them.
enum AlertRules {
  /// The rules of each venue of `plan`, their symbols in the venue's notation and among those
  /// followed; nil (after saying why) when one is not. A condition's symbol may name its venue
  /// (`binance/BTCUSDT`); one that does not is `--provider`'s.
  static func make(_ config: TickerConfig, plan: VenuePlan, _ diagnostics: Diagnostics) -> [[AlertBook.Rule]]?
  {
    var rules = [[AlertBook.Rule]](repeating: [], count: plan.members.count)
    for (conditions, ends, flag) in [(config.alerts, false, "--alert"), (config.until, true, "--until")] {
      for var condition in conditions {
        let written = condition.description
        let (named, symbol) = ProviderCatalog.qualified(condition.symbol)
        // A replay's one venue is its recording's, whatever --provider says.
        let venue = named?.name ?? (plan.isSeveral ? config.provider : plan.members[0].provider.name)
        guard let index = plan.members.firstIndex(where: { $0.provider.name == venue }) else {
          let followed = plan.members.map(\.provider.name).joined(separator: ", ")
          diagnostics.error(
            "\(flag) \(condition): this run does not follow \(venue) (it follows \(followed))")
          return nil
        }
        let member = plan.members[index]
        let provider = member.provider
        if let why = sideMismatch(condition, stream: provider.stream) {
          diagnostics.error("\(flag) \(condition): \(why)")
          return nil
        }
        guard case .success(let canonical) = provider.canonicalSymbol(symbol) else {
          diagnostics.error("\(flag) \(condition): \"\(symbol)\" is not a \(provider.displayName) symbol")
          return nil
        }
        guard member.symbols.contains(canonical) else {
          let prefix = plan.isSeveral ? provider.name + "/" : ""
          diagnostics.error(
            "\(flag) \(condition): \(prefix)\(canonical) is not followed (add --symbol \(prefix)\(canonical)); "
              + "following \(member.symbols.map { prefix + $0 }.joined(separator: ", "))")
          return nil
        }
        condition.symbol = canonical
        rules[index].append(AlertBook.Rule(condition: condition, ends: ends, written: written))
      }
    }
    return rules
  }

  /// Why `condition` cannot be judged on `stream`: a side on trades, or no side on the best bid
  /// and ask (a trade's price is neither, and guessing one would alert on the wrong number).
  static func sideMismatch(_ condition: AlertCondition, stream: MarketStream) -> String? {
    switch (condition.side, stream) {
    case (nil, .topOfBook):
      "this run follows the best bid and ask (--bid-ask): say which, as \(condition.symbol).bid or "
        + "\(condition.symbol).ask"
    case (let side?, .trades):
      "\(side.rawValue) is a side of the best bid and ask, and this run follows trades: add --bid-ask"
    default: nil
    }
  }
}

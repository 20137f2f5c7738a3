import CLI
import FeedRuntime
import Outputs
import Venues

/// `--alert` and `--until` as the feed takes them.
enum AlertRules {
  /// The rules, their symbols in the venue's notation and among those followed; nil (after
  /// saying why) when one is not.
  static func make(
    _ config: TickerConfig, provider: any Provider, symbols: [String], _ diagnostics: Diagnostics
  ) -> [AlertBook.Rule]? {
    var alerts: [AlertBook.Rule] = []
    for (conditions, ends, flag) in [(config.alerts, false, "--alert"), (config.until, true, "--until")] {
      for var condition in conditions {
        guard case .success(let canonical) = provider.canonicalSymbol(condition.symbol) else {
          diagnostics.error(
            "\(flag) \(condition): \"\(condition.symbol)\" is not a \(provider.displayName) symbol")
          return nil
        }
        guard symbols.contains(canonical) else {
          diagnostics.error(
            "\(flag) \(condition): \(canonical) is not followed (add --symbol \(canonical)); "
              + "following \(symbols.joined(separator: ", "))")
          return nil
        }
        condition.symbol = canonical
        alerts.append(AlertBook.Rule(condition: condition, ends: ends))
      }
    }
    return alerts
  }
}

import CLI
import FeedRuntime
import Outputs
import Venues

/// `ticker --help` and `ticker --version`. The options and the environment come from the
/// declarations in `Settings` (`HelpWriter`); a golden test pins the whole text.
enum HelpText {
  static let version = "ticker 0.1.0"

  static var usage: String {
    """
    ticker — live prices from a WebSocket feed, one line per price

    USAGE
      ticker [--provider NAME] [--symbol SYMBOL]... [options]
      ticker --demo [options]
      ticker --replay FILE [--speed X|max] [options]
    \(Subcommand.usageLines.map { "  " + $0 }.joined(separator: "\n"))

    \(HelpWriter.options())\(HelpWriter.environment())
    EXIT CODES
    \(ExitCode.helpLines().map { "  " + $0 }.joined(separator: "\n"))

    EXAMPLES
    \(examples.map { "  " + $0 }.joined(separator: "\n"))

    """
  }

  /// The examples, from the catalog: the default provider with its key, keyless venues with
  /// their example symbols.
  static var examples: [String] {
    let main = ProviderCatalog.defaultProvider
    let keyless = ProviderCatalog.all.filter { !$0.requiresToken }
    let dollars = keyless.first {
      ["USD", "USDT", "USDC"].contains($0.market(of: $0.exampleSymbol)?.quote ?? "")
    }
    /// `command`, then `note` in the column the examples' notes share.
    func noted(_ command: String, _ note: String) -> String {
      command + String(repeating: " ", count: max(1, 47 - command.count)) + note
    }
    var out = [noted("ticker --demo --count 5", "no key, no internet")]
    if let venue = keyless.first {
      out.append(noted("ticker --provider \(venue.name) -s \(venue.exampleSymbol)", "live, no key needed"))
    }
    out.append(noted("ticker --asset BTC --board", "BTC on every keyless venue at once"))
    out.append(
      "\(main.tokenVariable ?? "TOKEN")=… ticker -s \(main.exampleSymbol) --every-trade | awk -F'\\t' '{ print $3 }'"
    )
    if let venue = keyless.dropFirst().first {
      out.append("ticker --provider \(venue.name) --format json --count 1 | jq .price")
    }
    if let venue = keyless.dropFirst(2).first {
      out.append(
        "ticker --provider \(venue.name) -s \(venue.exampleSymbol) --format csv --count 100 > prices.csv")
    }
    if let venue = dollars {
      out.append(
        "ticker --provider \(venue.name) --until '\(venue.exampleSymbol)>100000' && notify-send 'BTC above 100k'"
      )
    }
    out += [
      "ticker --replay demo.ndjson --speed max --every-trade     (made with --record)",
      noted("ticker serve --demo --port 8717", "\(main.displayName)'s API on ws://127.0.0.1:8717/"),
      "source <(ticker completions bash)",
    ]
    return out
  }
}

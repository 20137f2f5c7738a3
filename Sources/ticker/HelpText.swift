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
      ticker --demo --count 5                        no key, no internet
      ticker --provider binance -s btcusdt,ethusdt   live, no key needed
      FINNHUB_TOKEN=… ticker -s AAPL,BINANCE:BTCUSDT --every-trade | awk -F'\\t' '{ print $3 }'
      ticker --provider coinbase --format json --count 1 | jq .price
      ticker --provider upbit -s KRW-BTC --format csv --count 100 > prices.csv
      ticker --provider binance --until 'BTCUSDT>100000' && notify-send 'BTC above 100k'
      ticker --replay demo.ndjson --speed max --every-trade     (made with --record)
      ticker serve --demo --port 8717                 Finnhub's API on ws://127.0.0.1:8717/
      source <(ticker completions bash)

    """
  }
}

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
      ticker serve [--provider NAME] [--port PORT] [--bind ADDRESS] [--serve-token TOKEN] [options]
      ticker completions bash|zsh|fish

    \(HelpWriter.options())\(HelpWriter.environment())
    EXIT CODES
      0 feed ended (count reached, reader gone, server closed with 1000, --until met)
      1 --until was given and the feed ended before any of its conditions held
      64 usage error or missing token      65 venue refused, or a bad recording
      66 config/CA/recording file unusable 69 the service cannot be used from here
      70 internal error                    71 serve: cannot listen (port in use)
      73 cannot create the --record file   74 stdout or --record write error
      75 reconnects exhausted              76 protocol or TLS error
      77 token refused (401/403)           78 invalid config
      130/143 SIGINT/SIGTERM

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

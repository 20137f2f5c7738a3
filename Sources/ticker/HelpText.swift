/// `ticker --help` and `ticker --version`. A golden test pins this text.
enum HelpText {
  static let version = "ticker 0.1.0"

  static let usage = """
    ticker — live prices from a WebSocket feed, one line per price

    USAGE
      ticker [--symbol SYMBOL]... [options]
      ticker --demo [options]

    EXAMPLES
      FINNHUB_TOKEN=… ticker --symbol BINANCE:BTCUSDT
      ticker --provider binance -s btcusdt,ethusdt     (no key needed)
      ticker --demo --count 5
      FINNHUB_TOKEN=… ticker -s BINANCE:BTCUSDT,AAPL --format json | jq .price

    FEED
          --provider NAME      finnhub (default; needs FINNHUB_TOKEN), upbit, binance,
                               coinbase
      -s, --symbol SYMBOL      symbol to follow, in the venue's notation; repeat the flag
                               or separate with commas (default: BINANCE:BTCUSDT,
                               KRW-BTC, BTCUSDT or BTC-USD)
          --url URL            WebSocket endpoint instead of the provider's
                               (Finnhub still gets its token parameter)
          --demo               replay a built-in session of the provider from a local
                               server: no token, no internet
          --count N            exit after printing N price lines
          --control stdin      change the subscription while running, one line each
                               on stdin: +SYM[,SYM…] add, -SYM remove, =A,B replace,
                               ? list (on stderr)

    FILTERING
          --debounce SECONDS   per-symbol quiet time before a price prints (default 0.5);
                               0 prints every distinct price
          --max-wait SECONDS   longest a price may wait under a continuous stream
                               (default: the debounce interval)
          --every-trade        print every trade, unfiltered (no debounce, no dedupe)

    OUTPUT
          --format text|json   text: TIME<TAB>SYMBOL<TAB>PRICE; json: one object per line
          --color auto|always|never
                               colour prices by direction (auto: only on a terminal,
                               never when NO_COLOR is set)
          --no-color           same as --color never

    CONNECTION
          --engine auto|urlsession|native
                               WebSocket engine (default auto: URLSession where it
                               supports WebSockets, else the native engine)
          --cacert FILE        also trust the CA certificates in this PEM file
          --connect-timeout SECONDS
                               limit for name lookup + TCP + TLS + upgrade (default 10)
          --max-message-size BYTES
                               largest message accepted (default 16777216)

    RECONNECT AND KEEPALIVE
          --max-retries N      reconnects allowed after a transient failure
                               (default unlimited; 0 = never reconnect)
          --max-backoff SECONDS
                               longest wait between reconnects (default 60)
          --ping-interval SECONDS
                               WebSocket ping interval (default 30; 0 = off)
          --pong-timeout SECONDS
                               a pong later than this means the link is dead (default 10)
          --silence-timeout SECONDS
                               no message for this long means the link is dead
                               (default 150; 0 = off)

    GENERAL
          --config FILE        settings file (JSON; see config.example.json)
      -v, --verbose            say what happens on stderr (engine choice, connection)
      -h, --help               show this help
          --version            show the version

    ENVIRONMENT
      FINNHUB_TOKEN            Finnhub API key (never printed; there is no --token flag)
      TICKER_CONFIG            settings file when --config is not given
      TICKER_SYMBOLS, TICKER_URL, TICKER_ENGINE, TICKER_DEBOUNCE, TICKER_FORMAT, …
                               settings; flags win over these, these over the file
      NO_COLOR                 disable colour

    EXIT CODES
      0 feed ended (count reached, reader gone, server closed with 1000)
      64 usage or missing token    65 subscription refused   66 config file missing
      69 server unavailable        70 internal error         74 stdout write error
      75 reconnects exhausted      76 protocol or TLS error  77 token refused (401/403)
      78 invalid config            130/143 SIGINT/SIGTERM

    """
}

extension DemoSession {
  /// The recorded Coinbase session `ticker --demo --provider coinbase` replays.
  public static let coinbase = #"""
    {"kind":"recording","format":1,"provider":"coinbase","symbols":["BTC-USD"],"started":"2026-08-25T03:35:56.813Z","started_ms":1787628956813}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"{\"type\":\"subscribe\",\"product_ids\":[\"BTC-USD\"],\"channels\":[\"ticker\"]}"}
    {"dir":"S>","kind":"text","after_ms":80,"body":"{\"type\":\"subscriptions\",\"channels\":[{\"name\":\"ticker\",\"product_ids\":[\"BTC-USD\"]}]}"}
    {"dir":"S>","kind":"text","after_ms":300,"body":"{\"type\":\"ticker\",\"sequence\":134905860112,\"product_id\":\"BTC-USD\",\"price\":\"80691.53\",\"open_24h\":\"79850.00\",\"volume_24h\":\"8123.44120031\",\"low_24h\":\"79402.11\",\"high_24h\":\"81030.00\",\"volume_30d\":\"301122.77310000\",\"best_bid\":\"80691.52\",\"best_bid_size\":\"0.35000000\",\"best_ask\":\"80691.53\",\"best_ask_size\":\"0.01200000\",\"side\":\"buy\",\"time\":\"2026-08-25T03:35:57.198335Z\",\"trade_id\":1081862675,\"last_size\":\"0.00000001\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"subscribe\",\"product_ids\":[\"GIBBERISH-USD\"],\"channels\":[\"ticker\"]}"}
    {"dir":"S>","kind":"text","after_ms":60,"body":"{\"type\":\"error\",\"message\":\"Failed to subscribe\",\"reason\":\"GIBBERISH-USD is not a valid product\"}"}
    """#
}

extension DemoSession {
  /// The recorded OKX session `ticker --demo --provider okx` replays.
  public static let okx = #"""
    {"kind":"recording","format":1,"provider":"okx","symbols":["BTC-USDT"],"started":"2026-10-06T09:14:31.402Z","started_ms":1791278071402}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":6,"body":"{\"id\":\"1\",\"op\":\"subscribe\",\"args\":[{\"channel\":\"tickers\",\"instId\":\"BTC-USDT\"}]}"}
    {"dir":"S>","kind":"text","after_ms":71,"body":"{\"id\":\"1\",\"event\":\"subscribe\",\"arg\":{\"channel\":\"tickers\",\"instId\":\"BTC-USDT\"},\"connId\":\"3b7f0e1c\"}"}
    {"dir":"S>","kind":"text","after_ms":38,"body":"{\"arg\":{\"channel\":\"tickers\",\"instId\":\"BTC-USDT\"},\"data\":[{\"instType\":\"SPOT\",\"instId\":\"BTC-USDT\",\"last\":\"79412.6\",\"lastSz\":\"0.00081204\",\"askPx\":\"79412.7\",\"askSz\":\"0.41833017\",\"bidPx\":\"79412.6\",\"bidSz\":\"1.07720465\",\"open24h\":\"78640.1\",\"high24h\":\"79880\",\"low24h\":\"78315.4\",\"sodUtc0\":\"78911.3\",\"sodUtc8\":\"78702.9\",\"volCcy24h\":\"612044739.418735602\",\"vol24h\":\"7751.68302447\",\"ts\":\"1791278071509\"}]}"}
    {"dir":"S>","kind":"text","after_ms":204,"body":"{\"arg\":{\"channel\":\"tickers\",\"instId\":\"BTC-USDT\"},\"data\":[{\"instType\":\"SPOT\",\"instId\":\"BTC-USDT\",\"last\":\"79412.5\",\"lastSz\":\"0.0125\",\"askPx\":\"79412.6\",\"askSz\":\"0.02211\",\"bidPx\":\"79412.5\",\"bidSz\":\"0.91207552\",\"open24h\":\"78640.1\",\"high24h\":\"79880\",\"low24h\":\"78315.4\",\"sodUtc0\":\"78911.3\",\"sodUtc8\":\"78702.9\",\"volCcy24h\":\"612045732.074985602\",\"vol24h\":\"7751.69552447\",\"ts\":\"1791278071714\"}]}"}
    {"dir":"S>","kind":"text","after_ms":161,"body":"{\"arg\":{\"channel\":\"tickers\",\"instId\":\"BTC-USDT\"},\"data\":[{\"instType\":\"SPOT\",\"instId\":\"BTC-USDT\",\"last\":\"79413\",\"lastSz\":\"0.00004\",\"askPx\":\"79413.1\",\"askSz\":\"0.29604\",\"bidPx\":\"79413\",\"bidSz\":\"0.00515\",\"open24h\":\"78640.1\",\"high24h\":\"79880\",\"low24h\":\"78315.4\",\"sodUtc0\":\"78911.3\",\"sodUtc8\":\"78702.9\",\"volCcy24h\":\"612045735.251505602\",\"vol24h\":\"7751.69556447\",\"ts\":\"1791278071874\"}]}"}
    {"dir":"C>","kind":"text","after_ms":19526,"body":"ping"}
    {"dir":"S>","kind":"text","after_ms":27,"body":"pong"}
    {"dir":"C>","kind":"text","after_ms":96,"body":"{\"id\":\"2\",\"op\":\"subscribe\",\"args\":[{\"channel\":\"tickers\",\"instId\":\"NOPE-USDT\"}]}"}
    {"dir":"S>","kind":"text","after_ms":44,"body":"{\"id\":\"2\",\"event\":\"error\",\"code\":\"60018\",\"msg\":\"Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist. Please use the correct URL, channel and parameters referring to API document.\",\"connId\":\"3b7f0e1c\"}"}
    {"dir":"S>","kind":"text","after_ms":257,"body":"{\"arg\":{\"channel\":\"tickers\",\"instId\":\"BTC-USDT\"},\"data\":[{\"instType\":\"SPOT\",\"instId\":\"BTC-USDT\",\"last\":\"79415.2\",\"lastSz\":\"0.3\",\"askPx\":\"79415.3\",\"askSz\":\"1.5\",\"bidPx\":\"79415.2\",\"bidSz\":\"0.11437\",\"open24h\":\"78640.1\",\"high24h\":\"79880\",\"low24h\":\"78315.4\",\"sodUtc0\":\"78911.3\",\"sodUtc8\":\"78702.9\",\"volCcy24h\":\"612069559.811505602\",\"vol24h\":\"7751.99556447\",\"ts\":\"1791278091826\"}]}"}
    """#
}

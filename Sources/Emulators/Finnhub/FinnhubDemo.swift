extension DemoSession {
  /// The recorded Finnhub session `ticker --demo --provider finnhub` replays.
  public static let finnhub = #"""
    {"kind":"recording","format":1,"provider":"finnhub","symbols":["BINANCE:BTCUSDT","AAPL"],"started":"2026-01-17T13:18:52.651Z","started_ms":1768655932651}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"{\"type\":\"subscribe\",\"symbol\":\"BINANCE:BTCUSDT\"}"}
    {"dir":"S>","kind":"text","after_ms":320,"body":"{\"data\":[{\"c\":null,\"p\":95372.09,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655932976,\"v\":0.00063},{\"c\":null,\"p\":95372.1,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933296,\"v\":0.00058}],\"type\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":40,"body":"{\"data\":[{\"c\":null,\"p\":95372.1,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933296,\"v\":0.00058}],\"type\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":110,"body":"{\"data\":[{\"p\":95371.85,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933402,\"v\":0.0121,\"c\":[]},{\"c\":null,\"p\":95371.9,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933390,\"v\":0.002}],\"type\":\"trade\"}"}
    {"dir":"C>","kind":"text","after_ms":50,"body":"{\"type\":\"subscribe\",\"symbol\":\"AAPL\"}"}
    {"dir":"S>","kind":"text","after_ms":90,"body":"{\"data\":[{\"c\":[\"1\",\"8\",\"24\",\"12\"],\"p\":122.1,\"s\":\"AAPL\",\"t\":1768655933500,\"v\":1},{\"c\":[\"1\",\"24\",\"12\"],\"p\":122.09,\"s\":\"AAPL\",\"t\":1768655933501,\"v\":4},{\"c\":null,\"p\":95372.3,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655933510,\"v\":0.0009}],\"type\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":26900,"body":"{\"type\":\"ping\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"subscribe\",\"symbol\":\"BINANCE:NOPEUSDT\"}"}
    {"dir":"S>","kind":"text","after_ms":60,"body":"{\"msg\":\"Invalid symbol BINANCE:NOPEUSDT\",\"type\":\"error\"}"}
    {"dir":"S>","kind":"text","after_ms":400,"body":"{\"data\":[{\"c\":null,\"p\":95380,\"s\":\"BINANCE:BTCUSDT\",\"t\":1768655961000,\"v\":0}],\"type\":\"trade\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"unsubscribe\",\"symbol\":\"AAPL\"}"}
    {"dir":"S>","kind":"text","after_ms":60000,"body":"{\"type\":\"ping\"}"}
    """#
}

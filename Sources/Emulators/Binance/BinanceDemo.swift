extension DemoSession {
  /// The recorded Binance session `ticker --demo --provider binance` replays.
  public static let binance = #"""
    {"kind":"recording","format":1,"provider":"binance","symbols":["BTCUSDT"],"started":"2026-09-14T16:52:56.050Z","started_ms":1789404776050}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"S>","kind":"text","after_ms":200,"body":"{\"stream\":\"btcusdt@trade\",\"data\":{\"e\":\"trade\",\"E\":1789404776251,\"s\":\"BTCUSDT\",\"t\":5206081234,\"p\":\"78860.00000000\",\"q\":\"0.00009000\",\"T\":1789404776250,\"m\":true,\"M\":true}}"}
    {"dir":"S>","kind":"ping","after_ms":3700,"body":"1789404780000"}
    {"dir":"C>","kind":"text","after_ms":20,"body":"{\"method\":\"SUBSCRIBE\",\"params\":[\"ethusdt@trade\"],\"id\":1}"}
    {"dir":"S>","kind":"text","after_ms":30,"body":"{\"result\":null,\"id\":1}"}
    {"dir":"C>","kind":"text","after_ms":50,"body":"{\"method\":\"SUBSCRIBE\",\"params\":[\"@@@bad###\"],\"id\":2}"}
    {"dir":"S>","kind":"text","after_ms":30,"body":"{\"error\":{\"code\":2,\"msg\":\"Invalid request: invalid stream\"},\"id\":2}"}
    {"dir":"S>","kind":"close","after_ms":10,"body":"1008"}
    """#
}

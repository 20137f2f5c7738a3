extension DemoSession {
  /// The recorded Upbit session `ticker --demo --provider upbit` replays.
  public static let upbit = #"""
    {"kind":"recording","format":1,"provider":"upbit","symbols":["KRW-BTC"],"started":"2026-02-16T13:16:54.457Z","started_ms":1771247814457}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"[{\"ticket\":\"ticker-1\"},{\"type\":\"ticker\",\"codes\":[\"KRW-BTC\"]},{\"format\":\"SIMPLE\"}]"}
    {"dir":"S>","kind":"binary","after_ms":180,"body":"{\"ty\":\"ticker\",\"cd\":\"KRW-BTC\",\"op\":102158000.0,\"hp\":103708000.0,\"lp\":100795000.0,\"tp\":103160000.0,\"pcp\":102103000.0,\"atp\":86970405555.45227,\"c\":\"RISE\",\"cp\":1057000.0,\"scp\":1057000.0,\"cr\":0.0103522913,\"scr\":0.0103522913,\"ab\":\"BID\",\"tv\":0.0005,\"atv\":851.82334868,\"tdt\":\"20260216\",\"ttm\":\"131654\",\"ttms\":1771247814642,\"aav\":412.37969677,\"abv\":439.44365191,\"h52wp\":179869000.0,\"h52wdt\":\"2025-10-09\",\"l52wp\":89000000.0,\"l52wdt\":\"2026-02-06\",\"ms\":\"ACTIVE\",\"its\":false,\"dd\":null,\"mw\":\"NONE\",\"tms\":1771247816255,\"atp24h\":157810722200.7429,\"atv24h\":1547.96784012,\"st\":\"SNAPSHOT\"}"}
    {"dir":"S>","kind":"binary","after_ms":460,"body":"{\"ty\":\"ticker\",\"cd\":\"KRW-BTC\",\"op\":102158000.0,\"hp\":103708000.0,\"lp\":100795000.0,\"tp\":1.03156E8,\"pcp\":102103000.0,\"atp\":86970456133.1,\"c\":\"RISE\",\"cp\":1053000.0,\"scp\":1053000.0,\"cr\":0.0103131152,\"scr\":0.0103131152,\"ab\":\"ASK\",\"tv\":4.9E-4,\"atv\":851.82383868,\"tdt\":\"20260216\",\"ttm\":\"131655\",\"ttms\":1771247815101,\"aav\":412.38018677,\"abv\":439.44365191,\"h52wp\":179869000.0,\"h52wdt\":\"2025-10-09\",\"l52wp\":89000000.0,\"l52wdt\":\"2026-02-06\",\"ms\":\"ACTIVE\",\"its\":false,\"dd\":null,\"mw\":\"NONE\",\"tms\":1771247815140,\"atp24h\":157810772778.3,\"atv24h\":1547.96833012,\"st\":\"REALTIME\"}"}
    {"dir":"C>","kind":"text","after_ms":20000,"body":"PING"}
    {"dir":"S>","kind":"binary","after_ms":30,"body":"{\"status\":\"UP\"}"}
    {"dir":"S>","kind":"binary","after_ms":10000,"body":"{\"status\":\"UP\"}"}
    {"dir":"C>","kind":"text","after_ms":100,"body":"{\"type\":\"ticker\",\"codes\":[\"KRW-BTC\"]}"}
    {"dir":"S>","kind":"binary","after_ms":40,"body":"{\"error\":{\"message\":\"Format 이 맞지 않습니다.\",\"name\":\"WRONG_FORMAT\"}}"}
    {"dir":"S>","kind":"close","after_ms":150,"body":"1000"}
    """#
}

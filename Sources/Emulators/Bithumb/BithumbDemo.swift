extension DemoSession {
  /// The recorded Bithumb session `ticker --demo --provider bithumb` replays.
  public static let bithumb = #"""
    {"kind":"recording","format":1,"provider":"bithumb","symbols":["KRW-BTC"],"started":"2026-07-10T04:39:41.330Z","started_ms":1783658381330}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":6,"body":"[{\"ticket\":\"ticker-1\"},{\"type\":\"trade\",\"codes\":[\"KRW-BTC\"]},{\"format\":\"DEFAULT\"}]"}
    {"dir":"S>","kind":"binary","after_ms":62,"body":"{\"type\":\"trade\",\"code\":\"KRW-BTC\",\"trade_price\":95539000,\"trade_volume\":0.00022664,\"ask_bid\":\"ASK\",\"prev_closing_price\":94201000,\"change\":\"RISE\",\"change_price\":1338000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:39:41\",\"trade_timestamp\":1783658381138,\"sequential_id\":\"862683813820523888\",\"timestamp\":1783658381398,\"stream_type\":\"SNAPSHOT\"}"}
    {"dir":"S>","kind":"binary","after_ms":211,"body":"{\"type\":\"trade\",\"code\":\"KRW-BTC\",\"trade_price\":95540000,\"trade_volume\":0.0105,\"ask_bid\":\"BID\",\"prev_closing_price\":94201000,\"change\":\"RISE\",\"change_price\":1339000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:39:41\",\"trade_timestamp\":1783658381574,\"sequential_id\":\"862683815710523904\",\"timestamp\":1783658381609,\"stream_type\":\"REALTIME\"}"}
    {"dir":"S>","kind":"binary","after_ms":383,"body":"{\"type\":\"trade\",\"code\":\"KRW-BTC\",\"trade_price\":95541000,\"trade_volume\":0.00104683,\"ask_bid\":\"BID\",\"prev_closing_price\":94201000,\"change\":\"RISE\",\"change_price\":1340000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:39:41\",\"trade_timestamp\":1783658381957,\"sequential_id\":\"862683819580524017\",\"timestamp\":1783658381992,\"stream_type\":\"REALTIME\"}"}
    {"dir":"S>","kind":"binary","after_ms":649,"body":"{\"type\":\"trade\",\"code\":\"KRW-BTC\",\"trade_price\":95536000,\"trade_volume\":0.0316,\"ask_bid\":\"ASK\",\"prev_closing_price\":94201000,\"change\":\"RISE\",\"change_price\":1335000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:39:42\",\"trade_timestamp\":1783658382606,\"sequential_id\":\"862683826110524200\",\"timestamp\":1783658382641,\"stream_type\":\"REALTIME\"}"}
    {"dir":"C>","kind":"text","after_ms":18359,"body":"PING"}
    {"dir":"S>","kind":"binary","after_ms":27,"body":"{\"status\":\"UP\"}"}
    {"dir":"S>","kind":"binary","after_ms":10000,"body":"{\"status\":\"UP\"}"}
    {"dir":"C>","kind":"text","after_ms":412,"body":"[{\"ticket\":\"ticker-2\"},{\"type\":\"trade\",\"codes\":[\"KRW-ETH\"],\"isOnlySnapshot\":true},{\"format\":\"DEFAULT\"}]"}
    {"dir":"C>","kind":"text","after_ms":0,"body":"[{\"ticket\":\"ticker-3\"},{\"type\":\"trade\",\"codes\":[\"KRW-BTC\",\"KRW-ETH\"],\"isOnlyRealtime\":true},{\"format\":\"DEFAULT\"}]"}
    {"dir":"S>","kind":"binary","after_ms":58,"body":"{\"type\":\"trade\",\"code\":\"KRW-ETH\",\"trade_price\":4145000,\"trade_volume\":0.1203,\"ask_bid\":\"BID\",\"prev_closing_price\":4098000,\"change\":\"RISE\",\"change_price\":47000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:40:08\",\"trade_timestamp\":1783658408586,\"sequential_id\":\"862684093200524871\",\"timestamp\":1783658411497,\"stream_type\":\"SNAPSHOT\"}"}
    {"dir":"S>","kind":"binary","after_ms":317,"body":"{\"type\":\"trade\",\"code\":\"KRW-BTC\",\"trade_price\":95548000,\"trade_volume\":0.00523,\"ask_bid\":\"BID\",\"prev_closing_price\":94201000,\"change\":\"RISE\",\"change_price\":1347000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:40:11\",\"trade_timestamp\":1783658411779,\"sequential_id\":\"862684128730525338\",\"timestamp\":1783658411814,\"stream_type\":\"REALTIME\"}"}
    {"dir":"S>","kind":"binary","after_ms":446,"body":"{\"type\":\"trade\",\"code\":\"KRW-ETH\",\"trade_price\":4146000,\"trade_volume\":0.0482,\"ask_bid\":\"BID\",\"prev_closing_price\":4098000,\"change\":\"RISE\",\"change_price\":48000,\"trade_date\":\"2026-07-10\",\"trade_time\":\"13:40:12\",\"trade_timestamp\":1783658412225,\"sequential_id\":\"862684133190525461\",\"timestamp\":1783658412260,\"stream_type\":\"REALTIME\"}"}
    {"dir":"C>","kind":"text","after_ms":120,"body":"{\"type\":\"trade\",\"codes\":[\"KRW-BTC\"]}"}
    {"dir":"S>","kind":"binary","after_ms":41,"body":"{\"error\":{\"name\":\"WRONG_FORMAT\",\"message\":\"Format 이 맞지 않습니다.\"}}"}
    {"dir":"S>","kind":"close","after_ms":150,"body":"1000"}
    """#
}

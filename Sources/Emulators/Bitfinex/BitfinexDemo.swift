extension DemoSession {
  /// The recorded Bitfinex session `ticker --demo --provider bitfinex` replays: the info event, a
  /// `trades` subscription and its answer, the snapshot, trades each as `te` then `tu`, a pair
  /// refused by name, a heartbeat.
  public static let bitfinex = #"""
    {"kind":"recording","format":1,"provider":"bitfinex","symbols":["tBTCUSD"],"started":"2026-10-14T08:21:04.907Z","started_ms":1791966064907}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"S>","kind":"text","after_ms":3,"body":"{\"event\":\"info\",\"version\":2,\"serverId\":\"5b73a436-19ca-4a06-8472-5c9a5a3d4d47\",\"platform\":{\"status\":1}}"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"{\"event\":\"subscribe\",\"channel\":\"trades\",\"symbol\":\"tBTCUSD\"}"}
    {"dir":"S>","kind":"text","after_ms":61,"body":"{\"event\":\"subscribed\",\"channel\":\"trades\",\"chanId\":17470,\"symbol\":\"tBTCUSD\",\"pair\":\"BTCUSD\"}"}
    {"dir":"S>","kind":"text","after_ms":1,"body":"[17470,[[1842915707,1791966064211,0.00081204,97412],[1842915706,1791966063978,-0.0402,97411],[1842915705,1791966063978,-0.1,97411],[1842915704,1791966061360,0.00233,97414],[1842915703,1791966058842,-0.012,97410],[1842915702,1791966057105,0.5,97412],[1842915701,1791966052633,-0.00049995,97408],[1842915700,1791966049910,0.03,97409]]]"}
    {"dir":"S>","kind":"text","after_ms":412,"body":"[17470,\"te\",[1842915708,1791966065392,0.0125,97413]]"}
    {"dir":"S>","kind":"text","after_ms":19,"body":"[17470,\"tu\",[1842915708,1791966065392,0.0125,97413]]"}
    {"dir":"S>","kind":"text","after_ms":201,"body":"[17470,\"te\",[1842915709,1791966065612,-1.7023900800000002,97411]]"}
    {"dir":"S>","kind":"text","after_ms":17,"body":"[17470,\"tu\",[1842915709,1791966065612,-1.7023900800000002,97411]]"}
    {"dir":"S>","kind":"text","after_ms":76,"body":"[17470,\"te\",[1842915710,1791966065705,0.26,97415]]"}
    {"dir":"S>","kind":"text","after_ms":21,"body":"[17470,\"tu\",[1842915710,1791966065705,0.26,97415]]"}
    {"dir":"S>","kind":"text","after_ms":1144,"body":"[17470,\"te\",[1842915711,1791966066870,-0.000114,97414]]"}
    {"dir":"S>","kind":"text","after_ms":18,"body":"[17470,\"tu\",[1842915711,1791966066870,-0.000114,97414]]"}
    {"dir":"C>","kind":"text","after_ms":2630,"body":"{\"event\":\"subscribe\",\"channel\":\"trades\",\"symbol\":\"tZZZUSD\"}"}
    {"dir":"S>","kind":"text","after_ms":44,"body":"{\"channel\":\"trades\",\"symbol\":\"tZZZUSD\",\"event\":\"error\",\"msg\":\"symbol: invalid\",\"code\":10300,\"pair\":\"ZZZUSD\"}"}
    {"dir":"S>","kind":"text","after_ms":12326,"body":"[17470,\"hb\"]"}
    {"dir":"S>","kind":"text","after_ms":1532,"body":"[17470,\"te\",[1842915712,1791966083402,0.0044,97409]]"}
    {"dir":"S>","kind":"text","after_ms":16,"body":"[17470,\"tu\",[1842915712,1791966083402,0.0044,97409]]"}
    """#
}

extension DemoSession {
  /// The recorded Bybit session `ticker --demo --provider bybit` replays.
  public static let bybit = #"""
    {"kind":"recording","format":1,"provider":"bybit","symbols":["BTCUSDT"],"started":"2026-10-07T11:02:15.318Z","started_ms":1791370935318}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":5,"body":"{\"req_id\":\"1\",\"op\":\"subscribe\",\"args\":[\"publicTrade.BTCUSDT\"]}"}
    {"dir":"S>","kind":"text","after_ms":68,"body":"{\"success\":true,\"ret_msg\":\"subscribe\",\"conn_id\":\"d3kq8v6f1lq9eoj0c2ng-5zvw1\",\"req_id\":\"1\",\"op\":\"subscribe\"}"}
    {"dir":"S>","kind":"text","after_ms":187,"body":"{\"topic\":\"publicTrade.BTCUSDT\",\"ts\":1791370935578,\"type\":\"snapshot\",\"data\":[{\"i\":\"2290000001226831406\",\"T\":1791370935576,\"p\":\"79408.3\",\"v\":\"0.000412\",\"S\":\"Buy\",\"seq\":115032976311,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false},{\"i\":\"2290000001226831407\",\"T\":1791370935576,\"p\":\"79408.5\",\"v\":\"0.0126\",\"S\":\"Buy\",\"seq\":115032976311,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false}]}"}
    {"dir":"S>","kind":"text","after_ms":244,"body":"{\"topic\":\"publicTrade.BTCUSDT\",\"ts\":1791370935822,\"type\":\"snapshot\",\"data\":[{\"i\":\"2290000001226831408\",\"T\":1791370935821,\"p\":\"79408.5\",\"v\":\"0.000063\",\"S\":\"Buy\",\"seq\":115032976402,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false}]}"}
    {"dir":"S>","kind":"text","after_ms":131,"body":"{\"topic\":\"publicTrade.BTCUSDT\",\"ts\":1791370935953,\"type\":\"snapshot\",\"data\":[{\"i\":\"2290000001226831409\",\"T\":1791370935951,\"p\":\"79407.91\",\"v\":\"0.0331\",\"S\":\"Sell\",\"seq\":115032976488,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false},{\"i\":\"2290000001226831410\",\"T\":1791370935951,\"p\":\"79407.9\",\"v\":\"0.1\",\"S\":\"Sell\",\"seq\":115032976488,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false},{\"i\":\"2290000001226831411\",\"T\":1791370935951,\"p\":\"79407.2\",\"v\":\"0.002519\",\"S\":\"Sell\",\"seq\":115032976488,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false}]}"}
    {"dir":"C>","kind":"text","after_ms":19370,"body":"{\"req_id\":\"ping\",\"op\":\"ping\"}"}
    {"dir":"S>","kind":"text","after_ms":29,"body":"{\"success\":true,\"ret_msg\":\"pong\",\"conn_id\":\"d3kq8v6f1lq9eoj0c2ng-5zvw1\",\"op\":\"ping\"}"}
    {"dir":"C>","kind":"text","after_ms":102,"body":"{\"req_id\":\"2\",\"op\":\"subscribe\",\"args\":[\"publicTrade.NOPEUSDT\"]}"}
    {"dir":"S>","kind":"text","after_ms":37,"body":"{\"success\":false,\"ret_msg\":\"Invalid symbol :[publicTrade.NOPEUSDT]\",\"conn_id\":\"d3kq8v6f1lq9eoj0c2ng-5zvw1\",\"req_id\":\"2\",\"op\":\"subscribe\"}"}
    {"dir":"S>","kind":"text","after_ms":315,"body":"{\"topic\":\"publicTrade.BTCUSDT\",\"ts\":1791370955806,\"type\":\"snapshot\",\"data\":[{\"i\":\"2290000001226832764\",\"T\":1791370955805,\"p\":\"79409.4\",\"v\":\"0.0052\",\"S\":\"Buy\",\"seq\":115032991037,\"s\":\"BTCUSDT\",\"BT\":false,\"RPI\":false}]}"}
    """#
}

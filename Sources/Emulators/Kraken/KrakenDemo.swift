extension DemoSession {
  /// The recorded Kraken session `ticker --demo --provider kraken` replays.
  public static let kraken = #"""
    {"kind":"recording","format":1,"provider":"kraken","symbols":["BTC/USD"],"started":"2026-09-21T14:02:11.408Z","started_ms":1789999331408}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"S>","kind":"text","after_ms":3,"body":"{\"channel\":\"status\",\"data\":[{\"api_version\":\"v2\",\"connection_id\":12393906104898154338,\"system\":\"online\",\"version\":\"2.0.10\"}],\"type\":\"update\"}"}
    {"dir":"C>","kind":"text","after_ms":6,"body":"{\"method\":\"subscribe\",\"params\":{\"channel\":\"ticker\",\"symbol\":[\"BTC/USD\"]},\"req_id\":1}"}
    {"dir":"S>","kind":"text","after_ms":45,"body":"{\"method\":\"subscribe\",\"req_id\":1,\"result\":{\"channel\":\"ticker\",\"snapshot\":true,\"symbol\":\"BTC/USD\"},\"success\":true,\"time_in\":\"2026-09-21T14:02:11.462301Z\",\"time_out\":\"2026-09-21T14:02:11.462318Z\"}"}
    {"dir":"S>","kind":"text","after_ms":1,"body":"{\"channel\":\"ticker\",\"type\":\"snapshot\",\"data\":[{\"symbol\":\"BTC/USD\",\"bid\":80912.3,\"bid_qty\":0.52031211,\"ask\":80912.4,\"ask_qty\":3.04471102,\"last\":80912.4,\"volume\":1422.57318944,\"vwap\":80521.7,\"low\":79688.0,\"high\":81250.0,\"change\":1048.9,\"change_pct\":1.31,\"timestamp\":\"2026-09-21T14:02:11.462409Z\"}]}"}
    {"dir":"S>","kind":"text","after_ms":1000,"body":"{\"channel\":\"heartbeat\"}"}
    {"dir":"S>","kind":"text","after_ms":255,"body":"{\"channel\":\"ticker\",\"type\":\"update\",\"data\":[{\"symbol\":\"BTC/USD\",\"bid\":80915.0,\"bid_qty\":0.07418,\"ask\":80915.1,\"ask_qty\":2.95,\"last\":80915.0,\"volume\":1422.60718944,\"vwap\":80521.8,\"low\":79688.0,\"high\":81250.0,\"change\":1051.5,\"change_pct\":1.32,\"timestamp\":\"2026-09-21T14:02:12.717843Z\"}]}"}
    {"dir":"C>","kind":"text","after_ms":290,"body":"{\"method\":\"subscribe\",\"params\":{\"channel\":\"ticker\",\"symbol\":[\"XBT/USD\"]},\"req_id\":2}"}
    {"dir":"S>","kind":"text","after_ms":12,"body":"{\"error\":\"Currency pair not supported XBT/USD\",\"method\":\"subscribe\",\"req_id\":2,\"success\":false,\"symbol\":\"XBT/USD\",\"time_in\":\"2026-09-21T14:02:13.020113Z\",\"time_out\":\"2026-09-21T14:02:13.020129Z\"}"}
    {"dir":"S>","kind":"text","after_ms":364,"body":"{\"channel\":\"ticker\",\"type\":\"update\",\"data\":[{\"symbol\":\"BTC/USD\",\"bid\":80909.8,\"bid_qty\":1.2,\"ask\":80909.9,\"ask_qty\":0.00618,\"last\":80909.8,\"volume\":1422.65018944,\"vwap\":80521.8,\"low\":79688.0,\"high\":81250.0,\"change\":1046.3,\"change_pct\":1.31,\"timestamp\":\"2026-09-21T14:02:13.384052Z\"}]}"}
    {"dir":"C>","kind":"text","after_ms":23024,"body":"{\"method\":\"ping\"}"}
    {"dir":"S>","kind":"text","after_ms":41,"body":"{\"method\":\"pong\",\"time_in\":\"2026-09-21T14:02:36.408921Z\",\"time_out\":\"2026-09-21T14:02:36.408937Z\"}"}
    """#
}

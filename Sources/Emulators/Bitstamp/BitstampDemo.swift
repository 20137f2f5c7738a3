extension DemoSession {
  /// The recorded Bitstamp session `ticker --demo --provider bitstamp` replays.
  public static let bitstamp = #"""
    {"kind":"recording","format":1,"provider":"bitstamp","symbols":["btcusd"],"started":"2026-10-08T10:23:37.215Z","started_ms":1791455017215}
    {"dir":"S>","kind":"http","after_ms":0,"body":"HTTP/1.1 101 Switching Protocols"}
    {"dir":"C>","kind":"text","after_ms":6,"body":"{\"event\":\"bts:subscribe\",\"data\":{\"channel\":\"live_trades_btcusd\"}}"}
    {"dir":"S>","kind":"text","after_ms":147,"body":"{\"event\":\"bts:subscription_succeeded\",\"channel\":\"live_trades_btcusd\",\"data\":{}}"}
    {"dir":"S>","kind":"text","after_ms":386,"body":"{\"data\":{\"id\":412093371,\"timestamp\":\"1791455017\",\"amount\":0.0016429999999999999,\"amount_str\":\"0.00164300\",\"price\":79412,\"price_str\":\"79412\",\"type\":0,\"microtimestamp\":\"1791455017676000\",\"buy_order_id\":1890233431216128,\"sell_order_id\":1890233429458944},\"channel\":\"live_trades_btcusd\",\"event\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":1204,"body":"{\"data\":{\"id\":412093372,\"timestamp\":\"1791455018\",\"amount\":0.05,\"amount_str\":\"0.05000000\",\"price\":79411,\"price_str\":\"79411\",\"type\":1,\"microtimestamp\":\"1791455018880000\",\"buy_order_id\":1890233427116032,\"sell_order_id\":1890233433370624},\"channel\":\"live_trades_btcusd\",\"event\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":0,"body":"{\"data\":{\"id\":412093373,\"timestamp\":\"1791455018\",\"amount\":0.01220911,\"amount_str\":\"0.01220911\",\"price\":79410,\"price_str\":\"79410\",\"type\":1,\"microtimestamp\":\"1791455018880000\",\"buy_order_id\":1890233426901001,\"sell_order_id\":1890233433370624},\"channel\":\"live_trades_btcusd\",\"event\":\"trade\"}"}
    {"dir":"S>","kind":"text","after_ms":2861,"body":"{\"data\":{\"id\":412093374,\"timestamp\":\"1791455021\",\"amount\":0.0003,\"amount_str\":\"0.00030000\",\"price\":79415,\"price_str\":\"79415\",\"type\":0,\"microtimestamp\":\"1791455021741000\",\"buy_order_id\":1890233441562624,\"sell_order_id\":1890233440235520},\"channel\":\"live_trades_btcusd\",\"event\":\"trade\"}"}
    {"dir":"C>","kind":"text","after_ms":530,"body":"{\"event\":\"bts:subscribe\",\"data\":{\"channel\":\"live_trades_nopeusd\"}}"}
    {"dir":"S>","kind":"text","after_ms":146,"body":"{\"event\":\"bts:subscription_succeeded\",\"channel\":\"live_trades_nopeusd\",\"data\":{}}"}
    {"dir":"S>","kind":"text","after_ms":1873,"body":"{\"data\":{\"id\":412093375,\"timestamp\":\"1791455024\",\"amount\":0.12,\"amount_str\":\"0.12000000\",\"price\":79416,\"price_str\":\"79416\",\"type\":0,\"microtimestamp\":\"1791455024290000\",\"buy_order_id\":1890233449078784,\"sell_order_id\":1890233447243776},\"channel\":\"live_trades_btcusd\",\"event\":\"trade\"}"}
    """#
}

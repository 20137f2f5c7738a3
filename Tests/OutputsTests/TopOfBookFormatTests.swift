import Testing

@testable import Outputs
@testable import Venues

/// Every line format of a top-of-book quote (`--bid-ask`): the digits the venue sent, sizes
/// empty or `null` where it gave none.
@Suite struct TopOfBookFormatTests {
  let quote = Quote(
    symbol: "BTCUSDT", bid: Price("97250.01000000")!, bidSize: Price("3.41877000"),
    ask: Price("97250.02000000")!, askSize: nil, time: 1_796_526_434_195, received: 1_796_526_434_200)

  @Test func text() {
    var plain = TextFormatter()
    #expect(plain.format(quote) == "2026-12-06T03:07:14.195Z\tBTCUSDT\t97250.01000000\t97250.02000000\n")
    var several = TextFormatter(timestamps: .none, venues: ["binance", "okx"])
    #expect(several.format(quote) == "binance\tBTCUSDT\t97250.01000000\t97250.02000000\n")
    var batch = TextFormatter()
    var out: [UInt8] = []
    batch.append(contentsOf: [quote, quote][...], to: &out)
    #expect(String(decoding: out, as: UTF8.self) == String(repeating: plain.format(quote), count: 2))
  }

  @Test("text with colour: each side by its own direction")
  func textColour() {
    var formatter = TextFormatter(useColor: true, timestamps: .none)
    _ = formatter.format(quote)
    var next = quote
    next.price = Price("97250")!
    next.ask = Ask(price: Price("97250.5")!, size: nil)
    #expect(formatter.format(next) == "BTCUSDT\t\u{1B}[31m97250\u{1B}[0m\t\u{1B}[32m97250.5\u{1B}[0m\n")
  }

  @Test func json() {
    var formatter = JSONLinesFormatter(provider: "binance")
    #expect(
      formatter.format(quote)
        == #"{"symbol":"BTCUSDT","bid":97250.01000000,"bid_size":3.41877000,"ask":97250.02000000,"ask_size":null,"#
        + #""time":"2026-12-06T03:07:14.195Z","t":1796526434195,"received":"2026-12-06T03:07:14.200Z","#
        + #""rt":1796526434200,"provider":"binance"}"# + "\n")
  }

  @Test func delimited() {
    let csv = DelimitedFormatter(separator: .comma, bidAsk: true)
    #expect(
      csv.header.map { String(decoding: $0, as: UTF8.self) } == "time,symbol,bid,ask,bid_size,ask_size\n")
    var tsv = DelimitedFormatter(
      separator: .tab, timestamps: .received, venues: ["binance", "okx"], bidAsk: true)
    #expect(
      tsv.header.map { String(decoding: $0, as: UTF8.self) }
        == "received\tvenue\tsymbol\tbid\task\tbid_size\task_size\n")
    #expect(
      tsv.format(quote)
        == "2026-12-06T03:07:14.200Z\tbinance\tBTCUSDT\t97250.01000000\t97250.02000000\t3.41877000\t\n")
  }

  @Test("the terminal line aligns bid and ask and points by the bid")
  func terminalLine() {
    var formatter = TerminalLineFormatter(symbols: ["BTCUSDT"], timestamps: .none)
    #expect(formatter.format(quote) == "BTCUSDT  • 97250.01000000  97250.02000000\n")
    var lower = quote
    lower.price = Price("97249.5")!
    #expect(formatter.format(lower) == "BTCUSDT  ▼ 97249.5         97250.02000000\n")
  }
}

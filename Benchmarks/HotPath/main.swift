// hotpath — the ticker's per-message work without I/O or threads, for instruction counts:
//
//   valgrind --tool=callgrind .build/release/hotpath 40000 [every-trade|default|setup] [symbols] [trades] [venue]
//
// venue: `finnhub` (the default), `binance` (one trade a message, as `feedserve --venue binance
// --symbols K` sends them) or `binance-book` (its book tickers, `--book`, through `--bid-ask`).
//
// Per-message cost = (Ir at N=40000 − Ir at N=20000) / 20000, minus the same for `setup`.
//
// Builds N pre-framed one-trade Finnhub messages (as `feedserve --blast` sends them), then runs
// them through what the ticker does to each: frame parsing, message assembly (with UTF-8
// validation), then the feed machine (Finnhub decoding, the subscribed-symbol filter, the
// every-trade or default (debounce + dedupe) stage), and text formatting into an output buffer. Prints a checksum so nothing is optimised away.

import FeedRuntime
import Outputs
import Venues
import WebSocketClient
import WebSocketWire

#if canImport(Glibc)
  import CMallocShim
  import Glibc
#endif

#if canImport(CMallocShim)
  // The ticker's malloc settings (Sources/ticker/main.swift).
  _ = ticker_malloc_defaults()
#endif

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let mode = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "every-trade"
/// How many symbols the messages cycle through, all subscribed (W9's 1,000 symbols: `default 1000`).
let symbolCount = CommandLine.arguments.count > 3 ? max(1, Int(CommandLine.arguments[3]) ?? 1) : 1
/// Trades per message (W9's 10 trades a message: `every-trade 1 10`).
let tradesPerMessage = CommandLine.arguments.count > 4 ? max(1, Int(CommandLine.arguments[4]) ?? 1) : 1
/// Finnhub's trades, or Binance's trades or book tickers (W10).
let venue = CommandLine.arguments.count > 5 ? CommandLine.arguments[5] : "finnhub"
let symbols =
  venue != "finnhub"
  ? (0..<symbolCount).map { "SYM\($0)USDT" }
  : symbolCount == 1 ? ["BINANCE:BTCUSDT"] : (0..<symbolCount).map { "BINANCE:SYM\($0)USDT" }
let provider: any Provider =
  switch venue {
  case "binance-book": BinanceProvider().topOfBook!
  case "binance": BinanceProvider()
  default: FinnhubProvider()
  }

/// The i-th message of `feedserve --blast N --venue binance --symbols K [--book]` (`BinanceBlast`).
func binanceMessage(_ i: Int, book: Bool) -> String {
  let symbol = symbols[i % symbols.count]
  let cents = 9_500_000 + (i * 7919) % 20_000
  func decimal(_ cents: Int) -> String { "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)000000" }
  let stream = symbol.lowercased() + (book ? "@bookTicker" : "@trade")
  let data =
    book
    ? #"{"u":\#(75_966_016_591 + i),"s":"\#(symbol)","b":"\#(decimal(cents))","B":"0.00063000","#
      + #""a":"\#(decimal(cents + 1 + i % 7))","A":"0.01000000"}"#
    : #"{"e":"trade","E":\#(1_789_404_776_251 + i),"s":"\#(symbol)","t":\#(5_206_081_234 + i),"#
      + #""p":"\#(decimal(cents))","q":"0.00063000","T":\#(1_789_404_776_250 + i),"m":true,"M":true}"#
  return #"{"stream":"\#(stream)","data":\#(data)}"#
}

func message(_ i: Int) -> String {
  if venue != "finnhub" { return binanceMessage(i, book: venue == "binance-book") }
  let cents = 9_500_000 + (i * 7919) % 20_000
  let price =
    cents % 100 == 0 ? "\(cents / 100)" : "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
  var out: [UInt8] = []
  FinnhubWire.appendTradeMessage(to: &out) { out in
    for k in 0..<tradesPerMessage {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      FinnhubWire.appendTrade(
        price: price.utf8, symbol: symbols[i % symbols.count], time: Int64(1_768_655_932_976 + i * 16 + k),
        volume: "0.00063".utf8, to: &out)
    }
  }
  return String(decoding: out, as: UTF8.self)
}

var wire: [UInt8] = []
wire.reserveCapacity(count * 110)
for i in 0..<count {
  wire += FrameEncoder.encodeServerFrame(Frame(opcode: .text, payload: Array(message(i).utf8)))
}

if mode == "setup" {  // the cost of building the input alone, to subtract
  print("hotpath: setup only, \(wire.count) bytes")
  exit(0)
}

/// The run, in a function: its state lives in locals, as in the ticker (`QuoteWriter` moves its
/// buffer and formatter into locals for the loop). Top-level variables are globals, and every
/// access to a global pays a dynamic exclusivity check the ticker does not (about 330
/// instructions per message here).
func run(_ wire: [UInt8], mode: String) throws {
  var parser = FrameParser(role: .client, maximumFrameSize: 16 << 20)
  var assembler = MessageAssembler(maximumMessageSize: 16 << 20)
  var machine = FeedMachine<ContinuousClock.Instant>(
    provider: provider, symbols: symbols,
    mode: mode == "every-trade" ? .everyTrade : PriceStageMode(debounce: .milliseconds(500)))
  var formatter = TextFormatter(useColor: false)
  var output: [UInt8] = []
  output.reserveCapacity(1 << 20)
  var lines = 0
  var checksum = 0
  // Time passes as in W9: about a microsecond per message (10 ns per wire byte), so debounce
  // deadlines come due and release quotes as they do in the ticker.
  let start = ContinuousClock.now

  // Feed the wire in 64 KiB reads, as the connection's reader does.
  var offset = 0
  while offset < wire.count {
    let end = min(offset + 65536, wire.count)
    wire[offset..<end].withUnsafeBytes { parser.append($0) }
    offset = end
    // One read's messages travel as one batch of session events, as in the ticker.
    var events: [SessionEvent] = []
    while let event = try assembler.next(from: &parser) {
      guard case .message(let message) = event else { continue }
      events.append(.message(message))
    }
    let now = start.advanced(by: .nanoseconds(10 * offset))
    for action in machine.handleLive(events, at: now).actions {
      guard case .publish(let quotes) = action else { continue }
      formatter.append(contentsOf: quotes[...], to: &output)
      lines += quotes.count
    }
    checksum &+= output.count
    output.removeAll(keepingCapacity: true)
  }
  for quote in machine.flush() {
    formatter.append(quote, to: &output)
    lines += 1
  }
  print("hotpath: \(count) messages, \(lines) lines, checksum \(checksum)")
}

try run(wire, mode: mode)

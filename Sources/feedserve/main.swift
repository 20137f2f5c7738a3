// feedserve — FeedServer as a command, for benchmarks and manual testing (not installed for
// users). Prints "PORT <n>" on stdout once listening (then "TRADES <n>" for a blast over --symbols),
// then serves until killed.
//
//   feedserve [--port N] [--venue V] [--script FILE.ndjson] [--time-scale X] [--verbatim] [--hold]
//   feedserve --blast N [--venue V] [--per-connection M] [--reconnect-with drop|CODE] [--verbatim]
//             [--trades A-B] [--symbols K] [--seed S] [--await N] [--hold]
//   feedserve --blast N --venue binance --symbols K [--book] [--verbatim]
//   (either form) [--deflate [no-context]]
//   feedserve --fuzz-seeds     print every venue's fuzz seeds and demo messages as JSON lines
//                              ({"venue":…,"name":…,"text":…}; Fuzz/make-corpus.py reads them)
//
// --venue NAME: emulate that venue of the catalog (as --provider names it; the default is the
//   default provider's) and, with --blast, write its wire format (its emulation's blastMessage).
//   Clients connect where the venue serves (its emulation's path; docs/protocols.md). The replay
//   (and the blast) starts at the venue's first subscription (for Binance, streams in the URL
//   count).
// --script: replay that session (default: the venue's built-in demo session).
// --blast N: send N pre-framed one-trade messages as fast as the socket takes them, then close
//   with 1000 (with --hold: keep the connection open). With --per-connection M, each connection gets M of them and is then ended with
//   close 1012 (or --reconnect-with drop / another code) so the client reconnects, until N are sent.
// --trades A-B (or N), --symbols K: blast messages of A to B trades each (pseudo-random), spread
//   over K symbols (BINANCE:BTCUSDT, BINANCE:ETHUSDT, …; see BlastMix), instead of one-trade
//   messages. --seed S picks the sequence (default 1); each connection k uses seed S+k.
// --venue V --symbols K: for a venue with a blast of its own over symbols (Binance: SYM0USDT,
//   SYM1USDT, …), one-trade messages spread over K symbols, each symbol's price moving every
//   time; with --book, its top-of-book updates (Binance's `<symbol>@bookTicker`) instead of
//   trades. Built before listening.
// --verbatim: do not wait for a subscribe (for clients that send none, e.g. websocat), answer
//   nothing, enforce nothing; with --venue, the blast is still in that venue's format.
// --await N: the replay (and the blast) starts at the Nth subscription request instead of the first
//   (the `ticker serve` benchmark connects every client before letting the blast go).
// --deflate: agree on permessage-deflate (RFC 7692) when a client offers it, with context
//   takeover; `--deflate no-context` adds server_no_context_takeover (each message compressed on
//   its own). Every data message then goes out compressed when that makes it smaller; a blast
//   writes one batch of 1000 compressed ahead of time for the connection, again and again (see
//   BlastFrames.compressed). Clients that offer nothing (websocat 1.x) get uncompressed frames.
// --hostile: with --blast, mix into every 1000 messages a 125-byte ping, a trade for an
//   unsubscribed symbol full of terminal controls, an error text full of them, and binary garbage.

import Emulators
import JSON
import Recording
import TickerSupport
import Venues
import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func fail(_ message: String) -> Never {
  let line = Array("feedserve: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(64)
}

nonisolated(unsafe) var arguments = Array(CommandLine.arguments.dropFirst())
func value(_ flag: String) -> String {
  guard !arguments.isEmpty else { fail("\(flag) needs a value") }
  return arguments.removeFirst()
}

var port = 0
var scriptPath: String?
var timeScale = 1.0
var verbatim = false
var hold = false
var blast: Int?
var perConnection: Int?
var reconnectWith = "1012"
var tradesRange: ClosedRange<Int>?
var symbolCount: Int?
var seed: UInt64 = 1
var hostile = false
var book = false
var awaitSubscriptions = 1
/// The venue emulated; the default provider's unless --venue names another.
var venue = VenueEmulation(ProviderCatalog.defaultProvider)!
/// Whether the blast is the default provider's (Finnhub's pre-framed one-trade messages, which
/// --hostile, --trades and --symbols shape).
var defaultVenue: Bool { venue.provider.name == ProviderCatalog.defaultProvider.name }
var compression: PerMessageDeflate.ServerPolicy?

func parseRange(_ text: String) -> ClosedRange<Int> {
  let parts = text.split(separator: "-", maxSplits: 1)
  guard let low = parts.first.flatMap({ Int($0) }), low >= 1 else { fail("bad --trades \(text)") }
  let high = parts.count == 2 ? Int(parts[1]) : low
  guard let high, high >= low else { fail("bad --trades \(text)") }
  return low...high
}

if arguments == ["--fuzz-seeds"] {
  for venue in ProviderCatalog.all.compactMap(VenueEmulation.init) {
    var seeds = venue.fuzzSeeds
    if let script = try? SessionScript(ndjson: venue.demoSession) {
      for (index, step) in script.steps.enumerated() where step.kind == .text || step.kind == .binary {
        seeds.append((name: "session-\(index)", text: step.body))
      }
    }
    for (name, text) in seeds {
      var line: [UInt8] = []
      line += #"{"venue":"#.utf8
      JSONEscaping.appendQuoted(venue.provider.name, to: &line)
      line += #","name":"#.utf8
      JSONEscaping.appendQuoted(name, to: &line)
      line += #","text":"#.utf8
      JSONEscaping.appendQuoted(text, to: &line)
      line += "}\n".utf8
      _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
  }
  exit(0)
}

while !arguments.isEmpty {
  let flag = arguments.removeFirst()
  switch flag {
  case "--port": port = Int(value(flag)) ?? { fail("bad --port") }()
  case "--script": scriptPath = value(flag)
  case "--time-scale": timeScale = Double(value(flag)) ?? { fail("bad --time-scale") }()
  case "--verbatim": verbatim = true
  case "--hold": hold = true
  case "--blast": blast = Int(value(flag)) ?? { fail("bad --blast") }()
  case "--per-connection": perConnection = Int(value(flag)) ?? { fail("bad --per-connection") }()
  case "--reconnect-with": reconnectWith = value(flag)
  case "--trades": tradesRange = parseRange(value(flag))
  case "--symbols":
    symbolCount = Int(value(flag)).flatMap { $0 >= 1 ? $0 : nil } ?? { fail("bad --symbols") }()
  case "--seed": seed = UInt64(value(flag)) ?? { fail("bad --seed") }()
  case "--hostile": hostile = true
  case "--book": book = true
  case "--deflate":
    // An optional value: the next argument, unless it is the next flag.
    if let next = arguments.first, !next.hasPrefix("--") {
      arguments.removeFirst()
      guard next == "no-context" else { fail("bad --deflate \(next) (no value, or no-context)") }
      compression = PerMessageDeflate.ServerPolicy(serverNoContextTakeover: true)
    } else {
      compression = PerMessageDeflate.ServerPolicy()
    }
  case "--await":
    awaitSubscriptions = Int(value(flag)).flatMap { $0 >= 1 ? $0 : nil } ?? { fail("bad --await") }()
  case "--venue":
    let name = value(flag)
    let names = ProviderCatalog.all.filter { VenueEmulation($0) != nil }.map(\.name).joined(separator: ", ")
    venue = VenueEmulation(named: name) ?? { fail("unknown --venue \(name) (\(names))") }()
  default: fail("unknown option \(flag)")
  }
}

// A venue's own blast over --symbols (Binance's), where it has one.
let venueSymbols =
  !defaultVenue && tradesRange == nil && !hostile && venue.blastMessage(0, symbols: 1, book: book) != nil
  ? symbolCount : nil
if book && venueSymbols == nil {
  fail("--book needs --venue V --symbols K, V a venue with a blast of its book")
}
if !defaultVenue, venueSymbols == nil, hostile || tradesRange != nil || symbolCount != nil {
  fail("--hostile, --trades and --symbols make \(ProviderCatalog.defaultProvider.displayName) messages only")
}

var text = venue.demoSession
if let scriptPath {
  // A benchmark's own script, read whole as before: no size limit.
  guard let bytes = try? WholeFile.read(scriptPath, limit: .max) else { fail("cannot open \(scriptPath)") }
  text = String(decoding: bytes, as: UTF8.self)
}
let script: SessionScript
do {
  script = try SessionScript(ndjson: text)
} catch {
  fail("\(error)")
}

var plans: [ConnectionPlan] = []
var mixedTrades: Int?
let normal = ConnectionPlan.Ending.close(CloseStatus(code: .normalClosure, reason: "done"))
if let blast {
  let each = perConnection ?? blast
  let reconnect: ConnectionPlan.Ending =
    reconnectWith == "drop"
    ? .drop : .close(CloseStatus(code: CloseCode(UInt16(reconnectWith) ?? 1012), reason: "restart"))
  let mixed = tradesRange != nil || symbolCount != nil
  var left = blast
  while left > 0 {
    let n = min(each, left)
    left -= n
    let then = left > 0 ? reconnect : hold ? .hold : normal
    let ending: ConnectionPlan.Ending
    if let symbols = venueSymbols {
      let offset = blast - left - n
      mixedTrades = (mixedTrades ?? 0) + n
      ending = .prebuiltBlast(
        PrebuiltBlast(count: n) { venue.blastMessage(offset + $0, symbols: symbols, book: book) ?? "" },
        then: then)
    } else if mixed {
      // Each connection continues the trade times where the previous one's could end at most.
      let trades = tradesRange ?? 1...1
      var mix = BlastMix(
        trades: trades, symbols: symbolCount ?? 1, seed: seed &+ UInt64(plans.count),
        firstTime: 1_768_655_932_976 + Int64(blast - left - n) * Int64(trades.upperBound))
      if compression == nil {
        // Framed before listening: the consumer, not this server making JSON, sets the pace.
        let prebuilt = PrebuiltBlast(mix: mix, count: n)
        mix.prebuilt = prebuilt
        mixedTrades = (mixedTrades ?? 0) + prebuilt.trades
      } else {
        mixedTrades = (mixedTrades ?? 0) + mix.tradeCount(messages: n)
      }
      ending = .mixedBlast(count: n, mix: mix, then: then)
    } else if !defaultVenue {
      ending = .venueBlast(venue, count: n, then: then)
    } else {
      ending = .blast(count: n, then: then)
    }
    plans.append(ConnectionPlan(script: SessionScript(steps: []), ending: ending))
  }
  // Anyone connecting after the last blast is told the feed is over.
  plans.append(ConnectionPlan(script: SessionScript(steps: []), ending: normal))
}

let server: FeedServer
do {
  var options = FeedServer.Options(
    port: port, timeScale: timeScale, emulation: verbatim ? .verbatim : .venue(venue),
    ending: hold ? .hold : normal, awaitSubscriptions: awaitSubscriptions, plans: plans)
  options.hostileBlast = hostile
  options.compression = compression
  server = try FeedServer(script: script, options: options)
} catch {
  fail("cannot listen: \(error)")
}
server.start()
// With --trades/--symbols, a second line says how many trades the blast carries in all.
let ready = Array("PORT \(server.port)\n\(mixedTrades.map { "TRADES \($0)\n" } ?? "")".utf8)
_ = ready.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
signal(SIGPIPE, SIG_IGN)
while true { pause() }

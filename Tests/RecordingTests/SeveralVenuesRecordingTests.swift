import FeedRuntime
import Foundation
import Recording
import Testing
import Venues

/// Recordings of runs of several venues: a format 2 header listing them, each step naming its
/// venue; a run of one venue is written exactly as before; a replay gives each venue's frames to
/// that venue's machine and stamps its quotes with the venue.
@Suite struct SeveralVenuesRecordingTests {
  static let header = RecordingHeader(
    venues: [
      .init(provider: "binance", symbols: ["BTCUSDT"]),
      .init(provider: "coinbase", symbols: ["BTC-USD", "ETH-USD"]),
    ], startedMilliseconds: 1_764_536_400_123)

  static func binanceTrade(_ id: Int, _ price: String) -> String {
    #"{"stream":"btcusdt@trade","data":{"e":"trade","E":1789404776251,"s":"BTCUSDT","t":\#(id),"p":"\#(price)","q":"0.5","T":\#(1_789_404_776_250 + id),"m":true,"M":true}}"#
  }

  static func coinbaseTicker(_ id: Int, _ price: String) -> String {
    #"{"type":"ticker","sequence":\#(id),"product_id":"BTC-USD","price":"\#(price)","side":"buy","time":"2026-08-25T03:35:57.\#(100 + id)Z","trade_id":\#(id),"last_size":"0.1"}"#
  }

  static func encode(_ lines: [RecordingLine]) -> [UInt8] {
    var out: [UInt8] = []
    var encoder = RecordingEncoder()
    for line in lines { encoder.append(line, to: &out) }
    return out
  }

  static func read(_ bytes: [UInt8]) throws(RecordingError) -> [RecordingLine] {
    var reader = RecordingReader()
    var out: [RecordingLine] = []
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
      if let parsed = try reader.read(line) { out.append(parsed) }
    }
    return out
  }

  static func step(_ at: Int64, venue: Int, batch: Int, _ what: RecordedStep.What) -> RecordingLine {
    .step(RecordedStep(at: at, received: 1_764_536_400_500, batch: batch, what: what, venue: venue))
  }

  @Test func aHeaderOfSeveralVenuesAndTheirStepsRoundTrip() throws {
    // Each venue's time counts from its own feed's start: venue 1's may be behind venue 0's.
    let lines: [RecordingLine] = [
      .header(Self.header),
      Self.step(5_000_000, venue: 0, batch: 1, .message(.text(Self.binanceTrade(1, "1.5")))),
      Self.step(4_000_000, venue: 1, batch: 2, .message(.text(Self.coinbaseTicker(1, "2.5")))),
      Self.step(4_000_000, venue: 1, batch: 2, .message(.text(Self.coinbaseTicker(2, "2.6")))),
      Self.step(5_500_000, venue: 0, batch: 3, .tick),
      Self.step(6_000_000, venue: 0, batch: 3, .end(.signal)),
      Self.step(7_000_000, venue: 1, batch: 4, .end(.signal)),
    ]
    let bytes = Self.encode(lines)
    #expect(try Self.read(bytes) == lines)
    let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    #expect(
      text[0]
        == #"{"kind":"recording","format":2,"venues":[{"provider":"binance","symbols":["BTCUSDT"]},{"provider":"coinbase","symbols":["BTC-USD","ETH-USD"]}],"started":"2025-11-30T21:00:00.123Z","started_ms":1764536400123}"#
    )
    #expect(
      text[4]
        == #"{"dir":"--","kind":"tick","after_ms":1,"venue":0,"at_ns":5500000,"rt":1764536400500,"batch":3}"#)
    #expect(
      text[6]
        == #"{"dir":"--","kind":"end","after_ms":1,"venue":1,"at_ns":7000000,"rt":1764536400500,"batch":4,"outcome":"signal"}"#
    )
  }

  @Test func aRunOfOneVenueIsWrittenAsBefore() {
    let one = RecordingHeader(
      venues: [.init(provider: "binance", symbols: ["BTCUSDT"])], startedMilliseconds: 1_764_536_400_123)
    #expect(
      one
        == RecordingHeader(provider: "binance", symbols: ["BTCUSDT"], startedMilliseconds: 1_764_536_400_123))
    let bytes = Self.encode([.header(one), Self.step(2_000_000, venue: 0, batch: 1, .opened)])
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == #"{"kind":"recording","format":1,"provider":"binance","symbols":["BTCUSDT"],"started":"2025-11-30T21:00:00.123Z","started_ms":1764536400123}"#
        + "\n" + #"{"dir":"--","kind":"opened","after_ms":2,"at_ns":2000000,"rt":1764536400500,"batch":1}"#
        + "\n")
  }

  @Test func badVenuesAreRefusedWithTheirLine() throws {
    let header = String(decoding: RecordingLine.header(Self.header).encoded(), as: UTF8.self)
    let cases: [(String, RecordingError)] = [
      (
        #"{"dir":"--","kind":"opened","after_ms":0,"venue":2,"at_ns":1,"rt":1,"batch":1}"#,
        .invalidLine(2, "\"venue\" must be an index into the header's 2 venues")
      ),
      (
        #"{"dir":"--","kind":"opened","after_ms":0,"venue":"1","at_ns":1,"rt":1,"batch":1}"#,
        .invalidLine(2, "\"venue\" must be an index into the header's 2 venues")
      ),
      (
        #"{"kind":"recording","format":1,"provider":"binance","symbols":[],"started_ms":1}"#,
        .providerChanged(2, from: "binance, coinbase", to: "binance")
      ),
      (
        #"{"kind":"recording","format":2,"venues":[{"provider":"binance","symbols":[]}],"started_ms":1}"#,
        .invalidLine(2, "a format 2 header lists 2 to 256 \"venues\"")
      ),
    ]
    for (line, expected) in cases {
      #expect(throws: expected) { try Self.read(Array((header + line + "\n").utf8)) }
    }
    // Time goes back within a venue: refused; across venues it may.
    let back = Self.encode([
      .header(Self.header), Self.step(5, venue: 1, batch: 1, .opened),
      Self.step(4, venue: 0, batch: 2, .opened),
      Self.step(3, venue: 1, batch: 3, .opened),
    ])
    #expect(throws: RecordingError.invalidLine(4, "\"at_ns\" goes back in time (3 after 5)")) {
      try Self.read(back)
    }
    #expect(throws: RecordingError.notARecording("recording format 3; this ticker reads formats 1 and 2")) {
      try Self.read(Array(#"{"kind":"recording","format":3,"venues":[],"started_ms":1}"#.utf8 + [0x0A]))
    }
  }

  @Test func recordedByTwoVenuesAndReplayedEachUnderItsOwn() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ticker-venues-\(UUID().uuidString).ndjson"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder.open(path: path, header: Self.header)
    let (binance, coinbase) = (recorder.venue(0), recorder.venue(1))
    await binance.record([.message(.text(Self.binanceTrade(1, "100.5")))], at: 1_000_000, received: 10)
    await coinbase.record([.message(.text(Self.coinbaseTicker(1, "200.5")))], at: 2_000_000, received: 11)
    await binance.record([.message(.text(Self.binanceTrade(2, "101.5")))], at: 3_000_000, received: 12)
    await coinbase.record(
      [.message(.text(Self.coinbaseTicker(2, "201.5"))), .message(.text(Self.coinbaseTicker(3, "202.5")))],
      at: 3_500_000, received: 13)
    await binance.end(.stopped(.signal(2)), at: 4_000_000, received: 14)
    await coinbase.end(.stopped(.signal(2)), at: 4_000_000, received: 14)
    // The file is finished by the last venue to finish, not the first.
    #expect(await binance.finish() == nil)
    #expect(await coinbase.finish() == nil)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 8)
    #expect(lines.filter { $0.contains(#""venue":1,"#) }.count == 4)

    let replay = try Replay.open(Replay.Settings(path: path, speed: .max, mode: .everyTrade))
    #expect(replay.header == Self.header)
    #expect(replay.providers.map(\.name) == ["binance", "coinbase"])
    let subscription = replay.bus.subscribe()
    let outcome = await replay.run()
    #expect(outcome == Replay.finishedOutcome)
    #expect(replay.error == nil)
    var quotes: [Quote] = []
    while let batches = try await subscription.queue.nextBatch() { for batch in batches { quotes += batch } }
    // In the recorded order, each with its venue and its venue's receive time.
    #expect(quotes.map(\.venue) == [0, 1, 0, 1, 1])
    #expect(quotes.map(\.symbol) == ["BTCUSDT", "BTC-USD", "BTCUSDT", "BTC-USD", "BTC-USD"])
    #expect(quotes.map { "\($0.price)" } == ["100.5", "200.5", "101.5", "201.5", "202.5"])
    #expect(quotes.map(\.received) == [10, 11, 12, 13, 13])
  }
}

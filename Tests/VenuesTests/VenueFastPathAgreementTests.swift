import TestSupport
import Testing

@testable import TestSupport
@testable import Venues
@testable import WebSocketWire

/// Binance's and Upbit's specialised decoders must agree with their model paths wherever they
/// answer, and the appending entry points must behave like `decode(_:)`.
@Suite(.ownThread) struct VenueFastPathAgreementTests {
  static let fixtures = [
    "finnhub-session.ndjson", "upbit-session.ndjson", "binance-session.ndjson", "coinbase-session.ndjson",
    "kraken-session.ndjson",
    "okx-session.ndjson",
  ]

  /// Every server body of every fixture.
  static func fixtureBodies() throws -> [String] {
    var bodies: [String] = []
    for name in fixtures {
      bodies += try Fixture.session(name).filter {
        $0.direction == "S>" && ($0.kind == "text" || $0.kind == "binary")
      }.map(\.body)
    }
    return bodies
  }

  /// Each input, then `perInput` random mutations of it: a byte changed, removed, inserted from a
  /// JSON-ish alphabet, a digit changed, or a span duplicated (repeated keys).
  static func mutations(of inputs: [String], perInput: Int, seed: UInt64) -> [String] {
    var rng = SplitMix64(seed: seed)
    var out = inputs
    for input in inputs {
      let bytes = Array(input.utf8)
      for _ in 0..<perInput {
        var copy = bytes
        switch rng.next() % 5 {
        case 0 where !copy.isEmpty:
          copy[Int(rng.next() % UInt64(copy.count))] = UInt8(truncatingIfNeeded: rng.next())
        case 1 where !copy.isEmpty: copy.remove(at: Int(rng.next() % UInt64(copy.count)))
        case 2:
          let alphabet = Array(#" ,:{}[]"0-.eE9\tnT"#.utf8)
          copy.insert(
            alphabet[Int(rng.next() % UInt64(alphabet.count))], at: Int(rng.next() % UInt64(copy.count + 1)))
        case 3 where !copy.isEmpty:
          let start = Int(rng.next() % UInt64(copy.count))
          let end = min(copy.count, start + 1 + Int(rng.next() % 40))
          copy.insert(contentsOf: copy[start..<end], at: Int(rng.next() % UInt64(copy.count + 1)))
        default:
          let digits = copy.indices.filter { copy[$0] >= 0x30 && copy[$0] <= 0x39 }
          if !digits.isEmpty {
            copy[digits[Int(rng.next() % UInt64(digits.count))]] = UInt8(ascii: "0") + UInt8(rng.next() % 10)
          }
        }
        out.append(String(decoding: copy, as: UTF8.self))
      }
    }
    return out
  }

  /// The checks for one input and one provider; returns whether the fast path answered.
  static func check(
    _ input: String, fast: (WebSocketMessage) -> ProviderEvent?, model: (WebSocketMessage) -> ProviderEvent,
    decode: (WebSocketMessage) -> ProviderEvent, append: (WebSocketMessage, inout [Quote]) -> ProviderEvent?
  ) -> Bool {
    var answered = false
    let earlier = Quote(symbol: "EARLIER", price: Price("1")!, time: 1)
    for message in [WebSocketMessage.text(input), .binary(Array(input.utf8))] {
      let reference = model(message)
      #expect(decode(message) == reference, "\(input)")
      var batch = [earlier]
      let returned = append(message, &batch)
      if case .quotes(let quotes) = reference {
        #expect(returned == nil, "\(input)")
        #expect(batch == [earlier] + quotes, "\(input)")
        #expect(batch.map(\.price.text) == [earlier.price.text] + quotes.map(\.price.text), "\(input)")
      } else {
        #expect(returned == reference, "\(input)")
        #expect(batch == [earlier], "\(input)")
      }
      guard let answer = fast(message) else { continue }
      answered = true
      #expect(answer == reference, "\(input)")
      #expect(answer.quotes.map(\.price.text) == reference.quotes.map(\.price.text), "\(input)")
      #expect(answer.quotes.map { $0.volume?.text } == reference.quotes.map { $0.volume?.text }, "\(input)")
    }
    return answered
  }

  @Test func binanceFastPathAgreesWithTheModel() throws {
    let provider = BinanceProvider()
    let trade =
      #"{"e":"trade","E":1789404776251,"s":"BTCUSDT","t":5206081234,"p":"78860.00000000","q":"0.00009000","T":1789404776250,"m":true,"M":true}"#
    var inputs =
      try Self.fixtureBodies() + [
        trade, #"{"stream":"btcusdt@trade","data":\#(trade)}"#,
        #"{"data":\#(trade),"stream":"btcusdt@trade"}"#,
        #" { "stream" : "x" , "data" : { "e" : "trade" , "s" : "A" , "p" : "1.5" , "T" : 0 } } "#,
        #"{"e":"trade","s":"A","p":"1","T":1,"q":null}"#,
        #"{"e":"trade","s":"A","p":"1E3","q":"-0.0","T":1}"#,
        #"{"e":"trade","s":"A","p":"1","T":1,"p":"2"}"#, #"{"e":"trade","s":"A","p":"1","E":5}"#,
        #"{"e":"trade","s":"A","p":"1","T":1,"x":[1]}"#, #"{"e":"trade","s":"A","p":"1","T":1,"id":1}"#,
        #"{"e":"trade","s":"A","p":"1","T":1,"result":null,"id":1}"#,
        #"{"stream":"x","data":\#(trade),"e":"trade"}"#,
        #"{"stream":"x","data":\#(trade),"result":null}"#, #"{"stream":1,"data":\#(trade)}"#,
        #"{"e":"trade","s":"\u0041","p":"1","T":1}"#, #"{"e":"trade","s":"A","p":"1","T":-1}"#,
        #"{"e":"trade","s":"A","p":"1","T":1.0}"#, #"{"e":"trade","s":"A","p":"01","T":1}"#,
        #"{"e":"serverShutdown","E":1}"#, #"{"result":null,"id":1}"#,
        #"{"e":"trade","s":"ÅB","p":"1","T":1}"#,
      ]
    inputs = Self.mutations(of: inputs, perInput: 300, seed: 8)
    var answered = 0
    for input in inputs
    where Self.check(
      input, fast: provider.fastDecode, model: provider.decodeThroughModel, decode: provider.decode,
      append: { provider.decode($0, appendingQuotesTo: &$1) })
    {
      answered += 1
    }
    // The fast path must actually cover the common messages, or this test proves nothing (most
    // inputs come from other venues' fixtures and never were Binance trades).
    #expect(answered > 500)
  }

  @Test func upbitFastPathAgreesWithTheModel() throws {
    let provider = UpbitProvider()
    var inputs =
      try Self.fixtureBodies() + [
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1}"#,
        #"{"type":"ticker","code":"KRW-BTC","trade_price":1,"timestamp":2}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"tms":2,"ttms":3,"tv":4.9E-4}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1,"code":"KRW-ETH"}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1,"tp":2}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":null,"tms":5}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1,"tv":null}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1,"status":"UP"}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1,"error":{}}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1,"x":{"a":1}}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":1,"ttms":1.771E12}"#,
        #"{"ty":"trade","cd":"KRW-BTC","tp":1,"ttms":1}"#,
        #"{"ty":"ticker","cd":"KRW-BTC","tp":"1","ttms":1}"#,
        #"{"ty":"ticker","cd":"\uD55C","tp":1,"ttms":1}"#, #"{"status":"UP"}"#,
      ]
    inputs = Self.mutations(of: inputs, perInput: 300, seed: 9)
    var answered = 0
    for input in inputs
    where Self.check(
      input, fast: provider.fastDecode, model: provider.decodeThroughModel, decode: provider.decode,
      append: { provider.decode($0, appendingQuotesTo: &$1) })
    {
      answered += 1
    }
    #expect(answered > 500)
  }
}

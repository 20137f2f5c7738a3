import Foundation
import TestSupport
import Testing

@testable import Venues
@testable import WebSocketWire

/// Large messages are decoded a chunk at a time (`FinnhubProvider.decodeLarge`); whatever the
/// message, the chunks hold exactly the quotes `decode(_:)` gives, in order, and the same event
/// or the same drops.
@Suite(.ownThread) struct LargeMessageTests {
  static let provider = FinnhubProvider()

  static func trade(_ i: Int, extra: String = "", price: String? = nil) -> String {
    #"{"c":null,"p":\#(price ?? "\(95_000 + i % 977).\(i % 100)"),"s":"BINANCE:\#(i % 3 == 0 ? "ETH" : "BTC")USDT","t":\#(1_768_655_932_976 + i),"v":0.5\#(extra)}"#
  }

  static func message(_ entries: [String], type: String = "trade", typeFirst: Bool = false) -> String {
    let data = #""data":[\#(entries.joined(separator: ","))]"#
    return typeFirst ? #"{"type":"\#(type)",\#(data)}"# : #"{\#(data),"type":"\#(type)"}"#
  }

  static let n = 10_000  // ten chunks of 1024, the last one short

  static let cases: [(String, String)] = [
    ("the fast path's shape", message((0..<n).map { trade($0) })),
    ("type first", message((0..<n).map { trade($0) }, typeFirst: true)),
    ("an unknown key in every trade", message((0..<n).map { trade($0, extra: #","x":[1,{"y":2}]"#) })),
    (
      "an escape in every symbol",
      message((0..<n).map { trade($0).replacing("BINANCE:", with: "BINANCE\\u003a") })
    ),
    (
      "malformed entries among good ones",
      message((0..<n).map { $0 % 7 == 3 ? trade($0, price: #""oops""#) : trade($0) })
    ),
    ("every entry malformed", message((0..<n).map { trade($0, price: "null") })),
    (
      "a duplicate data key: the last counts",
      #"{"data":[\#(trade(1))],"type":"trade","data":[\#((0..<n).map { trade($0) }.joined(separator: ","))]}"#
    ),
    (
      "an error with data",
      message((0..<n).map { trade($0) }, type: "error").replacing(#""type""#, with: #""msg":"boom","type""#)
    ),
    ("a ping with data", message((0..<n).map { trade($0) }, type: "ping")),
    ("an unknown type", message((0..<n).map { trade($0) }, type: "news")),
    ("cut short", String(message((0..<n).map { trade($0) }).dropLast(5))),
    ("data not an array", #"{"type":"trade","data":5}"#),
    ("no data", #"{"type":"trade"}"#),
    ("empty data", #"{"type":"trade","data":[]}"#),
  ]

  @Test(arguments: cases)
  func chunksAgreeWithTheWholeDecode(name: String, text: String) throws {
    for message in [WebSocketMessage.text(text), .binary(Array(text.utf8))] {
      let reference = Self.provider.decode(message)
      let large = try #require(Self.provider.decodeLarge(message))
      switch large {
      case .event(.malformed(let text)) where text.hasPrefix("every trade entry was invalid"):
        // Only the first few drops are described (the whole decode lists every one).
        guard case .malformed(let all) = reference else {
          Issue.record("\(name): decode did not find it malformed")
          break
        }
        let descriptions = all.dropFirst("every trade entry was invalid: ".count).split(separator: "; ")
        let expected =
          "every trade entry was invalid: "
          + descriptions.prefix(LargeMessage.droppedDescriptions).joined(separator: "; ")
          + "; and \(descriptions.count - LargeMessage.droppedDescriptions) more"
        #expect(text == expected, "\(name)")
      case .event(let event):
        #expect(event == reference, "\(name)")
      case .chunks(var chunks, let dropped, let droppedCount):
        var quotes: [Quote] = []
        var chunkCount = 0
        while chunks.next(into: &quotes) { chunkCount += 1 }
        // Compared in summary, so that a failure does not print 10,000 quotes.
        #expect(quotes.count == reference.quotes.count, "\(name)")
        #expect(quotes == reference.quotes, "\(name): the quotes differ")
        #expect(
          chunkCount == (quotes.count + droppedCount + LargeMessage.chunkSize - 1) / LargeMessage.chunkSize,
          "\(name)")
        switch reference {
        case .partial(_, let all):
          #expect(dropped == Array(all.prefix(LargeMessage.droppedDescriptions)), "\(name): \(dropped)")
          #expect(droppedCount == all.count, "\(name)")
        case .quotes:
          #expect(dropped.isEmpty && droppedCount == 0, "\(name)")
        default:
          Issue.record("\(name): chunks where decode gives \(reference)")
        }
      }
    }
  }

  @Test func chunksHoldAtMostTheChunkSize() throws {
    let message = WebSocketMessage.text(Self.message((0..<Self.n).map { Self.trade($0) }))
    guard case .chunks(var chunks, _, _)? = Self.provider.decodeLarge(message) else {
      Issue.record("no chunks")
      return
    }
    var sizes: [Int] = []
    var quotes: [Quote] = []
    while chunks.next(into: &quotes) {
      sizes.append(quotes.count)
      quotes.removeAll()
    }
    #expect(LargeMessage.chunkSize == 1024)
    #expect(sizes == Array(repeating: 1024, count: 9) + [784])
  }
}

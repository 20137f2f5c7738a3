import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: the Kraken v2 provider on arbitrary bytes — decoding (never a trap; text and
// binary frames alike; a refusal names a pair only when it has one), the input as a ticker's
// `last` (a price keeps exactly the number's digits) and as its `timestamp` (what is accepted
// reads back, truncated rather than rounded), and subscription messages for pairs taken from the
// input. Built by Fuzz/run.sh.
import Venues
import WebSocketClient

private let provider = KrakenProvider()

/// A price's plain text parses back to an equal price with the same text and value.
private func checkPrice(_ price: Price) {
  guard let again = Price(price.text) else { fatalError("Price text \(price.text) does not parse") }
  precondition(again == price && again.text == price.text, "Price \(price.text) does not round-trip")
  precondition(again.value == price.value && price.value.isFinite, "Price \(price.text) changed value")
}

private func checkDecoding(_ message: WebSocketMessage) -> ProviderEvent {
  let event = provider.decode(message)
  for quote in event.quotes {
    precondition(!quote.symbol.isEmpty, "quote with an empty symbol")
    precondition(quote.volume == nil, "Kraken's tickers carry no trade size")
    checkPrice(quote.price)
  }
  if case .error(let error) = event {
    precondition(!error.fatal, "a Kraken refusal leaves the connection open")
    precondition(error.symbol.map { !$0.isEmpty } ?? true, "a refusal names an empty pair")
  }
  var batch: [Quote] = []
  let returned = provider.decode(message, appendingQuotesTo: &batch)
  if case .quotes(let quotes) = event {
    precondition(returned == nil && batch == quotes, "appending entry point differs")
  } else {
    precondition(returned == event && batch.isEmpty, "appending entry point differs")
  }
  return event
}

/// A one-entry ticker message with these members after `symbol`.
private func ticker(_ members: String) -> String {
  #"{"channel":"ticker","type":"update","data":[{"symbol":"A/B",\#(members)}]}"#
}

/// The input, when it is a number, as a ticker's `last`: the quote's price is the one that
/// number's text makes, digit for digit.
private func checkLast(_ text: String) {
  guard let expected = Price(text.trimmingJSONSpace) else { return }
  let event = provider.decode(.text(ticker(#""last":\#(text),"timestamp":"2026-09-21T14:02:11Z""#)))
  guard case .quotes(let quotes) = event, quotes.count == 1 else {
    fatalError("the number \(text) is not read as a price: \(event)")
  }
  precondition(quotes[0].price.text == expected.text, "\(text) read as \(quotes[0].price.text)")
}

/// The time of a ticker whose `timestamp` is `text`; nil when refused.
private func time(_ text: String) -> Int64? {
  switch provider.decode(.text(ticker(#""last":1.0,"timestamp":"# + JSONEscaping.quoted(text)))) {
  case .quotes(let quotes):
    precondition(quotes.count == 1, "one entry, one quote")
    return quotes[0].time
  case .malformed(let why):
    precondition(
      why == #"every ticker entry was invalid: data[0]: "timestamp" is not an RFC 3339 date-time"#,
      "unexpected refusal: \(why)")
    return nil
  default:
    fatalError("a ticker with a string timestamp must be a quote or malformed")
  }
}

private func checkTime(_ text: String) {
  guard let ms = time(text) else { return }
  let printed = UTCTimestamp.string(milliseconds: ms)
  precondition(time(printed) == ms, "\(printed) does not read back as \(ms)")
  let bytes = Array(text.utf8)
  // "YYYY-MM-DDTHH:MM:SS.fffZ" with three or more fraction digits and no leap second: the printed
  // form is the input cut after the milliseconds (truncated, never rounded).
  if bytes.count >= 24, bytes[19] == UInt8(ascii: "."), bytes[17...18] != [0x36, 0x30],
    bytes[20..<(bytes.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
    bytes.last! | 0x20 == UInt8(ascii: "z")
  {
    var expected = Array(bytes[0..<23]) + [UInt8(ascii: "Z")]
    expected[10] = UInt8(ascii: "T")
    precondition(Array(printed.utf8) == expected, "\(text) read as \(printed)")
  }
}

/// Pairs from the input (comma-separated): canonical forms are stable and plain, and the
/// requests are JSON naming exactly the pairs changed, each with the next id.
private func checkSubscriptions(_ text: String) {
  var pairs: [String] = []
  for raw in text.split(separator: ",", omittingEmptySubsequences: false).prefix(50) {
    guard case .success(let pair) = provider.canonicalSymbol(String(raw)) else { continue }
    precondition(provider.canonicalSymbol(pair) == .success(pair), "canonical form not stable")
    precondition(
      pair.split(separator: "/", omittingEmptySubsequences: false).count == 2
        && pair.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2F },
      "canonical pair \(pair) is not BASE/QUOTE in upper-case letters and digits")
    precondition(provider.market(of: pair) != nil, "a canonical pair says what it trades")
    if !pairs.contains(pair) { pairs.append(pair) }
  }
  var ids = RequestIDs(prefix: "fuzz")
  let subscribe = provider.subscriptionMessages(from: [], to: pairs, ids: &ids)
  precondition(subscribe.count == (pairs.isEmpty ? 0 : 1), "one subscribe for a fresh connection")
  if let first = subscribe.first { check(first, method: "subscribe", pairs: pairs, id: 1) }
  precondition(provider.subscriptionMessages(from: pairs, to: pairs.reversed(), ids: &ids).isEmpty)
  let kept = Array(pairs.prefix(pairs.count / 2))
  let removed = Array(pairs.dropFirst(kept.count))
  let before = ids.last
  let change = provider.subscriptionMessages(from: pairs, to: kept, ids: &ids)
  precondition(change.count == (removed.isEmpty ? 0 : 1), "one unsubscribe for what was removed")
  if let first = change.first { check(first, method: "unsubscribe", pairs: removed, id: before + 1) }
  precondition(ids.last == before + change.count, "one id per request")
}

private func check(_ message: WebSocketMessage, method: String, pairs: [String], id: Int) {
  guard case .text(let text) = message, let json = try? JSONParser().parse(text) else {
    fatalError("request is not JSON text: \(message)")
  }
  precondition(json["method"] == .string(method), "wrong method in \(text)")
  precondition(json["params"]?["channel"] == .string("ticker"), "wrong channel in \(text)")
  precondition(json["params"]?["symbol"] == .array(pairs.map(JSONValue.string)), "wrong pairs in \(text)")
  precondition(json["req_id"] == .number(String(id)), "wrong req_id in \(text)")
}

extension String {
  /// Without the white space JSON allows around a value.
  fileprivate var trimmingJSONSpace: String {
    let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    let bytes = Array(utf8)
    guard let first = bytes.firstIndex(where: { !space.contains($0) }),
      let last = bytes.lastIndex(where: { !space.contains($0) })
    else { return "" }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let binary = checkDecoding(.binary(bytes))
  if let text = String(validating: bytes, as: UTF8.self) {
    let textual = checkDecoding(.text(text))
    precondition(textual == binary, "text and binary frames decode differently")
    checkLast(text)
    checkTime(text)
    checkSubscriptions(text)
  }
  return 0
}

import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: the Coinbase provider on arbitrary bytes — decoding (never a trap; text and
// binary frames alike), its RFC 3339 reader (the input as a ticker's `time`: what it accepts
// reads back through UTCTimestamp, and truncates rather than rounds), and subscription messages
// for products taken from the input. Built by Fuzz/run.sh.
import Venues
import WebSocketClient

private let provider = CoinbaseProvider()

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
    checkPrice(quote.price)
    if let volume = quote.volume { checkPrice(volume) }
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

/// The time of a ticker whose `time` is `text`; nil when refused.
private func time(_ text: String) -> Int64? {
  let message = #"{"type":"ticker","product_id":"A-B","price":"1","time":"# + JSONEscaping.quoted(text) + "}"
  switch provider.decode(.text(message)) {
  case .quotes(let quotes):
    precondition(quotes.count == 1, "one ticker, one quote")
    return quotes[0].time
  case .malformed(let why):
    precondition(why == #""time" is not an RFC 3339 date-time"#, "unexpected refusal: \(why)")
    return nil
  default:
    fatalError("a ticker with a string time must be a quote or malformed")
  }
}

private func checkTime(_ text: String) {
  guard let ms = time(text) else { return }
  let bytes = Array(text.utf8)
  precondition(bytes.count >= 20, "too short to be RFC 3339")
  let printed = UTCTimestamp.string(milliseconds: ms)
  precondition(time(printed) == ms, "\(printed) does not read back as \(ms)")
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

/// Products from the input (comma-separated): canonical forms are stable and plain, and the
/// requests are JSON naming exactly the products changed.
private func checkSubscriptions(_ text: String) {
  var products: [String] = []
  for raw in text.split(separator: ",", omittingEmptySubsequences: false).prefix(50) {
    guard case .success(let product) = provider.canonicalSymbol(String(raw)) else { continue }
    precondition(provider.canonicalSymbol(product) == .success(product), "canonical form not stable")
    precondition(
      product.split(separator: "-", omittingEmptySubsequences: false).count == 2
        && product.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2D },
      "canonical product \(product) is not BASE-QUOTE in upper-case letters and digits")
    if !products.contains(product) { products.append(product) }
  }
  var ids = RequestIDs(prefix: "fuzz")
  let subscribe = provider.subscriptionMessages(from: [], to: products, ids: &ids)
  precondition(subscribe.count == (products.isEmpty ? 0 : 1), "one subscribe for a fresh connection")
  if let first = subscribe.first { check(first, type: "subscribe", products: products) }
  precondition(provider.subscriptionMessages(from: products, to: products.reversed(), ids: &ids).isEmpty)
  let kept = Array(products.prefix(products.count / 2))
  let removed = Array(products.dropFirst(kept.count))
  let change = provider.subscriptionMessages(from: products, to: kept, ids: &ids)
  precondition(change.count == (removed.isEmpty ? 0 : 1), "one unsubscribe for what was removed")
  if let first = change.first { check(first, type: "unsubscribe", products: removed) }
  precondition(ids.last == 0, "Coinbase requests take no ids")
}

private func check(_ message: WebSocketMessage, type: String, products: [String]) {
  guard case .text(let text) = message, let json = try? JSONParser().parse(text) else {
    fatalError("request is not JSON text: \(message)")
  }
  precondition(json["type"] == .string(type), "wrong type in \(text)")
  precondition(json["product_ids"] == .array(products.map(JSONValue.string)), "wrong products in \(text)")
  precondition(json["channels"] == .array([.string("ticker")]), "wrong channels in \(text)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let binary = checkDecoding(.binary(bytes))
  if let text = String(validating: bytes, as: UTF8.self) {
    let textual = checkDecoding(.text(text))
    precondition(textual == binary, "text and binary frames decode differently")
    checkTime(text)
    checkSubscriptions(text)
  }
  return 0
}

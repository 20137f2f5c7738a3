import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: the OKX provider on arbitrary bytes — decoding (never a trap; text and
// binary frames alike; the appending entry point like decode; a 60018 error's instrument is a
// piece of its message, and only such an error is a refusal of one instrument), the input as a
// ticker's `last` (kept as written, or refused), and subscription messages for instruments taken
// from the input. Built by Fuzz/run.sh.
import Venues
import WebSocketClient

private let provider = OKXProvider()

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
    precondition(quote.time >= 0, "negative time")
    checkPrice(quote.price)
    if let volume = quote.volume { checkPrice(volume) }
  }
  if case .error(let error) = event {
    if let instrument = error.symbol {
      precondition(!error.fatal && error.name == "60018", "an instrument refused by another error")
      precondition(
        error.message.contains(text: "instId:" + instrument), "the instrument is not in the message")
    }
  }
  let earlier = Quote(symbol: "EARLIER", price: Price("1")!, time: 1)
  var batch = [earlier]
  let returned = provider.decode(message, appendingQuotesTo: &batch)
  if case .quotes(let quotes) = event {
    precondition(returned == nil && batch == [earlier] + quotes, "appending entry point differs")
  } else {
    precondition(returned == event && batch == [earlier], "appending entry point differs")
  }
  return event
}

/// The input as a ticker's `last`: a quote whose price text is the input exactly (a plain
/// decimal), or not a quote at all.
private func checkLast(_ text: String) {
  let message =
    #"{"arg":{"channel":"tickers","instId":"A-B"},"data":[{"instId":"A-B","last":"#
    + JSONEscaping.quoted(text) + #","ts":"1"}]}"#
  switch provider.decode(.text(message)) {
  case .quotes(let quotes):
    precondition(quotes.count == 1, "one entry, one quote")
    let price = quotes[0].price
    precondition(price == Price(text), "the price is not the text's")
    let plain = !text.utf8.contains { $0 | 0x20 == UInt8(ascii: "e") }
    precondition(!plain || price.text == text, "\(text) printed as \(price.text)")
  case .malformed, .ignored:
    precondition(Price(text) == nil || text.isEmpty, "a price refused: \(text)")
  default:
    fatalError("a ticker must be a quote, malformed or ignored")
  }
}

/// Instruments from the input (comma-separated): canonical forms are stable and plain, and each
/// request is JSON naming one instrument on the tickers channel with the next id.
private func checkSubscriptions(_ text: String) {
  var instruments: [String] = []
  for raw in text.split(separator: ",", omittingEmptySubsequences: false).prefix(50) {
    guard case .success(let instrument) = provider.canonicalSymbol(String(raw)) else { continue }
    precondition(provider.canonicalSymbol(instrument) == .success(instrument), "canonical form not stable")
    let parts = instrument.split(separator: "-", omittingEmptySubsequences: false)
    precondition(
      parts.count == 2 && parts.allSatisfy { !$0.isEmpty }
        && instrument.utf8.allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2D
        },
      "canonical instrument \(instrument) is not BASE-QUOTE in upper-case letters and digits")
    precondition(provider.market(of: instrument) == Market(base: String(parts[0]), quote: String(parts[1])))
    if !instruments.contains(instrument) { instruments.append(instrument) }
  }
  var ids = RequestIDs(prefix: "fuzz")
  let subscribe = provider.subscriptionMessages(from: [], to: instruments, ids: &ids)
  precondition(subscribe.count == instruments.count, "one subscribe per instrument")
  for (n, message) in subscribe.enumerated() {
    check(message, op: "subscribe", instrument: instruments[n], id: n + 1)
  }
  precondition(
    provider.subscriptionMessages(from: instruments, to: instruments.reversed(), ids: &ids).isEmpty)
  let kept = Array(instruments.prefix(instruments.count / 2))
  let removed = Array(instruments.dropFirst(kept.count))
  let change = provider.subscriptionMessages(from: instruments, to: kept, ids: &ids)
  precondition(change.count == removed.count, "one unsubscribe per instrument removed")
  for (n, message) in change.enumerated() {
    check(message, op: "unsubscribe", instrument: removed[n], id: instruments.count + n + 1)
  }
}

private func check(_ message: WebSocketMessage, op: String, instrument: String, id: Int) {
  guard case .text(let text) = message, let json = try? JSONParser().parse(text) else {
    fatalError("request is not JSON text: \(message)")
  }
  precondition(json["id"] == .string(String(id)), "wrong id in \(text)")
  precondition(json["op"] == .string(op), "wrong op in \(text)")
  let arg = JSONValue.object(JSONObject([("channel", .string("tickers")), ("instId", .string(instrument))]))
  precondition(json["args"] == .array([arg]), "wrong args in \(text)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let binary = checkDecoding(.binary(bytes))
  if let text = String(validating: bytes, as: UTF8.self) {
    let textual = checkDecoding(.text(text))
    precondition(textual == binary, "text and binary frames decode differently")
    checkLast(text)
    checkSubscriptions(text)
  }
  return 0
}

import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: the Binance provider on arbitrary bytes — decoding (the fast path answers
// exactly like the model path wherever it answers; text and binary frames alike; the appending
// entry point like decode) and subscription messages for symbols taken from the input. Built by
// Fuzz/run.sh.
import Venues
import WebSocketClient

private let provider = BinanceProvider()

/// A price's plain text parses back to an equal price with the same text and value.
private func checkPrice(_ price: Price) {
  guard let again = Price(price.text) else { fatalError("Price text \(price.text) does not parse") }
  precondition(again == price && again.text == price.text, "Price \(price.text) does not round-trip")
  precondition(again.value == price.value && price.value.isFinite, "Price \(price.text) changed value")
  precondition(
    !price.text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }), "exponent in \(price.text)")
}

private func checkDecoding(_ message: WebSocketMessage) -> ProviderEvent {
  let event = provider.decode(message)
  let model = provider.decodeThroughModel(message)
  precondition(event == model, "decode and the model path disagree")
  for quote in event.quotes {
    precondition(!quote.symbol.isEmpty, "quote with an empty symbol")
    checkPrice(quote.price)
    if let volume = quote.volume { checkPrice(volume) }
  }
  if let fast = provider.fastDecode(message) {
    precondition(fast == model, "fast path and model path disagree")
    precondition(fast.quotes.map(\.price.text) == model.quotes.map(\.price.text), "price texts differ")
    precondition(
      fast.quotes.map { $0.volume?.text } == model.quotes.map { $0.volume?.text }, "volume texts differ")
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

/// Symbols from the input (comma-separated): canonical forms are stable and plain, and the
/// SUBSCRIBE/UNSUBSCRIBE requests are JSON naming exactly the streams changed.
private func checkSubscriptions(_ text: String) {
  var symbols: [String] = []
  for raw in text.split(separator: ",", omittingEmptySubsequences: false).prefix(50) {
    guard case .success(let symbol) = provider.canonicalSymbol(String(raw)) else { continue }
    precondition(provider.canonicalSymbol(symbol) == .success(symbol), "canonical form not stable")
    precondition(
      !symbol.isEmpty && symbol.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) },
      "canonical symbol \(symbol) is not upper-case letters and digits")
    if !symbols.contains(symbol) { symbols.append(symbol) }
  }
  var ids = RequestIDs(prefix: "fuzz")
  let subscribe = provider.subscriptionMessages(from: [], to: symbols, ids: &ids)
  precondition(subscribe.count == (symbols.isEmpty ? 0 : 1), "one SUBSCRIBE for a fresh connection")
  if let first = subscribe.first { check(first, method: "SUBSCRIBE", symbols: symbols, id: 1) }
  precondition(provider.subscriptionMessages(from: symbols, to: symbols.reversed(), ids: &ids).isEmpty)
  let kept = Array(symbols.prefix(symbols.count / 2))
  let removed = Array(symbols.dropFirst(kept.count))
  let change = provider.subscriptionMessages(from: symbols, to: kept, ids: &ids)
  precondition(change.count == (removed.isEmpty ? 0 : 1), "one UNSUBSCRIBE for what was removed")
  if let first = change.first { check(first, method: "UNSUBSCRIBE", symbols: removed, id: ids.last) }
}

private func check(_ message: WebSocketMessage, method: String, symbols: [String], id: Int) {
  guard case .text(let text) = message, let json = try? JSONParser().parse(text) else {
    fatalError("request is not JSON text: \(message)")
  }
  precondition(json["method"] == .string(method), "wrong method in \(text)")
  precondition(json["id"] == .number(String(id)), "wrong id in \(text)")
  let streams = symbols.map(BinanceProvider.streamName(for:)).map(JSONValue.string)
  precondition(json["params"] == .array(streams), "wrong params in \(text)")
}

/// Where the fast path answered, the same message with a member added that changes what the
/// model path must say (a precedence key, a field given twice or in its other spelling): the fast
/// path must give up or still agree. Random mutation seldom builds these whole.
private let members: [[UInt8]] = [
  #""result":null"#, #""error":{}"#, #""stream":"x""#, #""id":1"#, #""data":{}"#, #""e":"x""#, #""T":null"#,
  #""p":"2""#,
].map { Array($0.utf8) + [UInt8(ascii: ",")] }

private func checkVariants(_ bytes: [UInt8]) {
  guard provider.fastDecode(.binary(bytes)) != nil,
    let open = bytes.firstIndex(of: UInt8(ascii: "{"))
  else { return }
  var positions = [open + 1]
  if let inner = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "{")) { positions.append(inner + 1) }
  for position in positions {
    for member in members {
      var variant = bytes
      variant.insert(contentsOf: member, at: position)
      _ = checkDecoding(.binary(variant))
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let binary = checkDecoding(.binary(bytes))
  checkVariants(bytes)
  if let text = String(validating: bytes, as: UTF8.self) {
    let textual = checkDecoding(.text(text))
    precondition(textual == binary, "text and binary frames decode differently")
    checkSubscriptions(text)
  }
  _ = provider.handshakeAdvice(status: size)
  return 0
}

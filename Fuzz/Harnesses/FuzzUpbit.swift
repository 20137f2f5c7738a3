import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: the Upbit provider on arbitrary bytes — decoding (the fast path answers
// exactly like the model path wherever it answers; text and binary frames alike; the appending
// entry point like decode) and subscription messages for symbols taken from the input. Built by
// Fuzz/run.sh.
import Venues
import WebSocketClient

private let provider = UpbitProvider()

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

/// Codes from the input (comma-separated): canonical forms are stable and plain, and the request
/// is JSON listing every code under a fresh ticket, whatever changed; nothing when nothing did.
private func checkSubscriptions(_ text: String) {
  var codes: [String] = []
  for raw in text.split(separator: ",", omittingEmptySubsequences: false).prefix(50) {
    guard case .success(let code) = provider.canonicalSymbol(String(raw)) else { continue }
    precondition(provider.canonicalSymbol(code) == .success(code), "canonical form not stable")
    let parts = code.split(separator: "-", omittingEmptySubsequences: false)
    precondition(
      parts.count == 2 && parts.allSatisfy { !$0.isEmpty }
        && code.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2D },
      "canonical code \(code) is not QUOTE-BASE in upper-case letters and digits")
    if !codes.contains(code) { codes.append(code) }
  }
  var ids = RequestIDs(prefix: "fuzz")
  let initial = provider.subscriptionMessages(from: [], to: codes, ids: &ids)
  precondition(initial.count == (codes.isEmpty ? 0 : 1), "one request for a fresh connection")
  if let first = initial.first { check(first, codes: codes, ticket: "fuzz-1") }
  precondition(provider.subscriptionMessages(from: codes, to: codes.reversed(), ids: &ids).isEmpty)
  precondition(provider.subscriptionMessages(from: codes, to: [], ids: &ids).isEmpty, "no unsubscribe")
  let kept = Array(codes.prefix(codes.count / 2))
  let change = provider.subscriptionMessages(from: codes, to: kept, ids: &ids)
  precondition(change.count == (kept.isEmpty || kept.count == codes.count ? 0 : 1), "one request per change")
  if let first = change.first { check(first, codes: kept, ticket: "fuzz-\(ids.last)") }
}

private func check(_ message: WebSocketMessage, codes: [String], ticket: String) {
  guard case .text(let text) = message, let json = try? JSONParser().parse(text), let parts = json.arrayValue,
    parts.count == 3
  else { fatalError("request is not a JSON array of three: \(message)") }
  precondition(parts[0]["ticket"] == .string(ticket), "wrong ticket in \(text)")
  precondition(parts[1]["type"] == .string("ticker"), "wrong type in \(text)")
  precondition(parts[1]["codes"] == .array(codes.map(JSONValue.string)), "wrong codes in \(text)")
  precondition(parts[2]["format"] == .string("SIMPLE"), "wrong format in \(text)")
}

/// Where the fast path answered, the same message with a member added that changes what the
/// model path must say (a precedence key, a field given twice or in its other spelling): the fast
/// path must give up or still agree. Random mutation seldom builds these whole.
private let members: [[UInt8]] = [
  #""status":"UP""#, #""error":{}"#, #""type":"trade""#, #""code":"X""#, #""trade_price":2"#, #""ttms":null"#,
  #""tms":"x""#, #""tv":null"#,
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

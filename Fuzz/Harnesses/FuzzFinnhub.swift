import CLI
import FeedRuntime
import JSON
import Outputs
import TickerSupport
// libFuzzer harness: JSONParser, Price and the Finnhub decoder on arbitrary bytes. Built by
// Fuzz/run.sh.
import Venues
import WebSocketClient

private let provider = FinnhubProvider()

/// A price's plain text parses back to an equal price with the same text and value.
private func checkPrice(_ price: Price) {
  guard let again = Price(price.text) else { fatalError("Price text \(price.text) does not parse") }
  precondition(again == price && again.text == price.text, "Price \(price.text) does not round-trip")
  precondition(again.value == price.value, "Price \(price.text) changed value")
  precondition(price.value.isFinite, "Price \(price.text) is not finite")
  precondition(
    !price.text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }), "exponent in \(price.text)")
}

private func checkQuotes(_ event: ProviderEvent) {
  for quote in event.quotes {
    precondition(!quote.symbol.isEmpty, "quote with an empty symbol")
    checkPrice(quote.price)
    if let volume = quote.volume { checkPrice(volume) }
  }
}

/// Every number the parser returns that Price accepts round-trips (Price refuses only exponents
/// beyond ±400 and values that overflow a Double).
private func checkNumbers(_ value: JSONValue) {
  switch value {
  case .number(let n): if let price = Price(n) { checkPrice(price) }
  case .array(let items): items.forEach(checkNumbers)
  case .object(let object): object.members.forEach { checkNumbers($0.value) }
  default: break
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = String(validating: bytes, as: UTF8.self)

  // JSONParser directly, with a small depth limit now and then.
  let parser = JSONParser(maxDepth: size > 0 && data[0] == 0x5B ? 8 : 256)
  var fromBytes: JSONValue? = nil
  do throws(JSONError) {
    fromBytes = try parser.parse(bytes)
  } catch {
    _ = "\(error)"
  }
  if let fromBytes {
    precondition(text != nil, "JSON accepted for bytes that are not UTF-8")
    checkNumbers(fromBytes)
  }
  if let text {
    // The String and byte entry points agree.
    var fromText: JSONValue? = nil
    do throws(JSONError) {
      fromText = try parser.parse(text)
    } catch {
      _ = "\(error)"
    }
    precondition(fromText == fromBytes, "parse(String) and parse([UInt8]) disagree")
    // The whole input as a price text (Binance-style decimal strings take this path).
    if let price = Price(text) { checkPrice(price) }
  }

  // The Finnhub decoder: binary frames always, text frames when the bytes are UTF-8.
  let binary = provider.decode(.binary(bytes))
  checkQuotes(binary)
  // Wherever the specialised decoder answers, it must answer exactly like the model path.
  if let fast = provider.fastDecode(.binary(bytes)) {
    let model = provider.decodeThroughModel(.binary(bytes))
    precondition(fast == model, "fast path and model path disagree")
    precondition(fast.quotes.map(\.price.text) == model.quotes.map(\.price.text), "price texts differ")
    precondition(
      fast.quotes.map { $0.volume?.text } == model.quotes.map { $0.volume?.text }, "volume texts differ")
  }
  if let text {
    let textual = provider.decode(.text(text))
    checkQuotes(textual)
    precondition(textual == binary, "text and binary frames decode differently")
  }
  checkLarge(.binary(bytes), reference: binary)
  return 0
}

/// The chunked decoder for large messages (used from 64 KiB on, but correct for any size) gives
/// the quotes `decode` gives, in order, and the same event or the same first drops.
private func checkLarge(_ message: WebSocketMessage, reference: ProviderEvent) {
  guard let large = provider.decodeLarge(message) else { fatalError("Finnhub has a large-message path") }
  switch large {
  case .event(.malformed(let text)):
    guard case .malformed(let all) = reference else { fatalError("chunked: malformed, decode: \(reference)") }
    // Only the first drops are described in a chunked decode.
    precondition(text == all || text.hasPrefix("every trade entry was invalid:"), "malformed texts differ")
  case .event(let event):
    precondition(event == reference, "chunked and whole decodes disagree: \(event) vs \(reference)")
  case .chunks(var chunks, let dropped, let droppedCount):
    var quotes: [Quote] = []
    while chunks.next(into: &quotes) {}
    precondition(quotes == reference.quotes, "chunked quotes differ")
    switch reference {
    case .partial(_, let all):
      precondition(droppedCount == all.count && dropped == Array(all.prefix(dropped.count)), "drops differ")
    case .quotes:
      precondition(droppedCount == 0, "chunked decode dropped entries decode kept")
    default:
      fatalError("chunks where decode gives \(reference)")
    }
  }
}

import JSON
import TickerSupport
// libFuzzer harness over every venue of the catalog (ProviderCatalog): the input is a venue's
// name, a newline and a message (or, when the first line names no venue, a venue picked by the
// first byte and the whole input as the message). For that venue: decoding never traps; the fast
// path answers exactly like the model path wherever it answers; text and binary frames decode
// alike; the appending entry point agrees with decode; prices and sizes keep their text and read
// back the same; a refusal names a symbol only when it has one; and the message's text as
// comma-separated symbols: canonical forms are stable, and subscription messages are made for
// them (none when nothing changes). Built by Fuzz/run.sh; seeds from each venue's emulation
// (Fuzz/make-corpus.py).
import Venues
import WebSocketClient
import WebSocketWire

private let venues = ProviderCatalog.all

/// A price's plain text parses back to an equal price with the same text and value.
private func checkPrice(_ price: Price) {
  guard let again = Price(price.text) else { fatalError("Price text \(price.text) does not parse") }
  precondition(again == price && again.text == price.text, "Price \(price.text) does not round-trip")
  precondition(again.value == price.value && price.value.isFinite, "Price \(price.text) changed value")
  precondition(
    !price.text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }), "exponent in \(price.text)")
}

private func checkDecoding(_ provider: any Provider, _ message: WebSocketMessage) -> ProviderEvent {
  let event = provider.decode(message)
  let model = provider.decodeThroughModel(message)
  precondition(event == model, "\(provider.name): decode and the model path disagree")
  for quote in event.quotes {
    precondition(!quote.symbol.isEmpty, "\(provider.name): quote with an empty symbol")
    checkPrice(quote.price)
    if let volume = quote.volume { checkPrice(volume) }
  }
  if case .error(let error) = event, let symbol = error.symbol {
    precondition(!symbol.isEmpty, "\(provider.name): a refusal names an empty symbol")
  }
  if let fast = provider.fastDecode(message) {
    precondition(fast == model, "\(provider.name): fast path and model path disagree")
    precondition(fast.quotes.map(\.price.text) == model.quotes.map(\.price.text), "price texts differ")
    precondition(
      fast.quotes.map { $0.volume?.text } == model.quotes.map { $0.volume?.text }, "volume texts differ")
  }
  let earlier = Quote(symbol: "EARLIER", price: Price("1")!, time: 1)
  var batch = [earlier]
  let returned = provider.decode(message, appendingQuotesTo: &batch)
  if case .quotes(let quotes) = event {
    precondition(
      returned == nil && batch == [earlier] + quotes, "\(provider.name): appending entry point differs")
  } else {
    precondition(returned == event && batch == [earlier], "\(provider.name): appending entry point differs")
  }
  return event
}

/// Symbols from the input (comma-separated): canonical forms are stable, a fresh connection's
/// subscription says something, and taking a set to itself (in any order) says nothing.
private func checkSubscriptions(_ provider: any Provider, _ text: String) {
  var symbols: [String] = []
  for raw in text.split(separator: ",", omittingEmptySubsequences: false).prefix(50) {
    guard case .success(let symbol) = provider.canonicalSymbol(String(raw)) else { continue }
    precondition(
      provider.canonicalSymbol(symbol) == .success(symbol), "\(provider.name): canonical form not stable")
    precondition(!symbol.isEmpty, "\(provider.name): an empty canonical symbol")
    if !symbols.contains(symbol) { symbols.append(symbol) }
  }
  guard !symbols.isEmpty else { return }
  var ids = RequestIDs(prefix: "fuzz")
  precondition(
    !provider.subscriptionMessages(from: [], to: symbols, ids: &ids).isEmpty,
    "\(provider.name): no subscription for a fresh connection")
  precondition(
    provider.subscriptionMessages(from: symbols, to: symbols.reversed(), ids: &ids).isEmpty
      || provider.subscriptionStyle == .wholeList,
    "\(provider.name): a subscription taken to itself says something")
  _ = provider.subscriptionMessages(from: symbols, to: Array(symbols.prefix(symbols.count / 2)), ids: &ids)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  guard !input.isEmpty else { return 0 }
  var provider = venues[Int(input[0]) % venues.count]
  var bytes = input[...]
  if let newline = input.firstIndex(of: 0x0A),
    let named = ProviderCatalog.provider(named: String(decoding: input[..<newline], as: UTF8.self))
  {
    provider = named
    bytes = input[(newline + 1)...]
  }
  let binary = checkDecoding(provider, .binary(Array(bytes)))
  if let text = String(validating: bytes, as: UTF8.self) {
    let textual = checkDecoding(provider, .text(text))
    precondition(textual == binary, "\(provider.name): text and binary frames decode differently")
    checkSubscriptions(provider, text)
  }
  _ = provider.handshakeAdvice(status: size)
  return 0
}

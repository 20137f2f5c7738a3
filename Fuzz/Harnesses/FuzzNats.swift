// libFuzzer harness: what a NATS server sends a `--source` subscriber, on arbitrary bytes — the
// parser in subscriber mode (never a trap; fed whole and in 7-byte chunks it gives the same
// messages and the same error; it holds no more than its line limit or its payload limit plus a
// chunk; no delivery is larger than the payload limit) and each delivery's payload, and the input
// itself, read as a published price (never a trap; a price keeps exactly its text). Built by
// Fuzz/run.sh.
import NATS
import NATSBridge
import Venues
import WebSocketClient

private let lineLimit = 1024
private let payloadLimit = 4096

private func parse(_ bytes: [UInt8], chunk: Int) -> ([NATSServerMessage], NATSProtocolError?) {
  var parser = NATSServerParser(maximumLineLength: lineLimit, maximumPayload: payloadLimit)
  var messages: [NATSServerMessage] = []
  var offset = 0
  while offset < bytes.count {
    let end = min(bytes.count, offset + chunk)
    parser.append(bytes[offset..<end])
    precondition(
      parser.bufferedCount <= max(lineLimit, payloadLimit + 2) + chunk,
      "the parser holds \(parser.bufferedCount)")
    offset = end
    do throws(NATSProtocolError) {
      while let message = try parser.next() { messages.append(message) }
    } catch {
      return (messages, error)
    }
  }
  return (messages, nil)
}

private func checkPublished(_ payload: [UInt8]) {
  let event = PublishedLine.decode(payload, venue: ProviderCatalog.defaultProvider.name)
  for quote in event.quotes {
    guard let again = Price(quote.price.text) else { fatalError("price \(quote.price.text) does not parse") }
    precondition(again == quote.price && again.text == quote.price.text, "price \(quote.price.text) changed")
  }
  if case .quotes(let quotes) = event { precondition(quotes.count == 1, "one payload, one price") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let whole = parse(bytes, chunk: max(1, bytes.count))
  let chunked = parse(bytes, chunk: 7)
  precondition(whole.0 == chunked.0 && whole.1 == chunked.1, "chunking changed what was read")
  for case .message(let delivery) in whole.0 {
    precondition(delivery.payload.count <= payloadLimit, "a delivery over the payload limit")
    checkPublished(delivery.payload)
  }
  checkPublished(bytes)
  return 0
}

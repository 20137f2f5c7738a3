import Venues

/// `--format price`: the bare price exactly as the venue sent it, one per line, for
/// `while read -r price; do …; done`. Nothing says which symbol a line is for, so the command
/// allows it with one symbol only.
public struct PriceOnlyFormatter: QuoteFormatter {
  public init() {}

  public mutating func append(_ quote: Quote, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: quote.price.text.utf8)
    buffer.append(0x0A)
  }
}

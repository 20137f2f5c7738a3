import JSON

/// The texts the Bitstamp emulation writes, in the venue's shapes (docs/protocols.md §8): answers
/// to requests, errors, the heartbeat's answer, and trades.
enum BitstampWire {
  /// The prefix of the channel that carries a market's trades.
  static let tradesPrefix = "live_trades_"
  /// The prefix of the channel that carries a market's book (its top 100 levels a side).
  static let bookPrefix = "order_book_"

  /// The market of a `live_trades_<market>` channel (or one of `prefix`); nil for any other
  /// channel.
  static func market(inChannel channel: String, prefix: String = tradesPrefix) -> String? {
    guard channel.hasPrefix(prefix), channel.utf8.count > prefix.utf8.count else { return nil }
    return String(channel.dropFirst(prefix.count))
  }

  /// `{"event":"bts:subscription_succeeded","channel":"live_trades_btcusd","data":{}}` (or
  /// `bts:unsubscription_succeeded`).
  static func answer(_ event: String, channel: String) -> String {
    #"{"event":\#(JSONEscaping.quoted(event)),"channel":\#(JSONEscaping.quoted(channel)),"data":{}}"#
  }

  /// `{"event":"bts:error","channel":"","data":{"code":null,"message":"Bad subscription string."}}`:
  /// every error seen names no channel and no code.
  static func error(_ refusal: Refusal) -> String {
    #"{"event":"bts:error","channel":"","data":{"code":null,"message":\#(JSONEscaping.quoted(refusal.message))}}"#
  }

  /// The answer to the client's `{"event":"bts:heartbeat"}`.
  static let heartbeat = #"{"event":"bts:heartbeat","channel":"","data":{"status":"success"}}"#

  /// Sent before maintenance: the client has a few seconds to reconnect.
  static let requestReconnect = #"{"event":"bts:request_reconnect","channel":"","data":null}"#

  /// Why Bitstamp refuses a message: the texts it answers with (observed).
  struct Refusal: Error, Sendable, Equatable {
    var message: String

    /// Text that is not JSON.
    static let incorrectJSON = Refusal(message: "Incorrect JSON format.")
    /// JSON that is no request: no channel, or an event Bitstamp does not know (`bts:ping`).
    static let badSubscription = Refusal(message: "Bad subscription string.")
    /// A channel name Bitstamp cannot read (`order_book_BTCUSD`, `live_trades_btc/usd`).
    static let invalidChannel = Refusal(message: "Invalid channel provided.")
  }

  /// One trade on `market`'s `live_trades_` channel, the members in the order Bitstamp sends them
  /// (since 2022): `price` and `amount` as JSON numbers (`priceNumber`, `amountNumber`), beside
  /// their exact strings.
  static func trade(
    market: String, id: Int64, microseconds: Int64, price: String, priceNumber: String, amount: String,
    amountNumber: String, buy: Bool, buyOrder: Int64, sellOrder: Int64
  ) -> String {
    #"{"data":{"id":\#(id),"timestamp":"\#(microseconds / 1_000_000)","amount":\#(amountNumber),"#
      + #""amount_str":"\#(amount)","price":\#(priceNumber),"price_str":"\#(price)","type":\#(buy ? 0 : 1),"#
      + #""microtimestamp":"\#(microseconds)","buy_order_id":\#(buyOrder),"sell_order_id":\#(sellOrder)},"#
      + #""channel":\#(JSONEscaping.quoted(tradesPrefix + market)),"event":"trade"}"#
  }

  /// The book of `market` as its `order_book_` channel sends it on every change: the whole top
  /// of the book, `[price, amount]` decimal strings best first, under the time it changed.
  static func book(
    market: String, microseconds: Int64, bids: [(price: String, amount: String)],
    asks: [(price: String, amount: String)]
  ) -> String {
    func levels(_ side: [(price: String, amount: String)]) -> String {
      "[" + side.map { #"["\#($0.price)","\#($0.amount)"]"# }.joined(separator: ",") + "]"
    }
    return #"{"data":{"timestamp":"\#(microseconds / 1_000_000)","microtimestamp":"\#(microseconds)","#
      + #""bids":\#(levels(bids)),"asks":\#(levels(asks))},"#
      + #""channel":\#(JSONEscaping.quoted(bookPrefix + market)),"event":"data"}"#
  }

  /// The number a float serializer prints for a decimal: its shortest form (`79412.50` →
  /// `79412.5`, `79412.00` → `79412`).
  static func number(_ decimal: String) -> String {
    guard decimal.utf8.contains(UInt8(ascii: ".")) else { return decimal }
    var text = Substring(decimal)
    while text.hasSuffix("0") { text = text.dropLast() }
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(text)
  }
}

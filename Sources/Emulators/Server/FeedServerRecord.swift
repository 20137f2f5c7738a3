import WebSocketWire

extension FeedServer {
  /// What the server has seen, for tests.
  public struct Record: Sendable, Equatable {
    /// Upgrade requests received (including refused ones).
    public var connections = 0
    /// Request targets (path and query) in arrival order.
    public var targets: [String] = []
    /// Text messages clients sent, in arrival order (every connection).
    public var clientMessages: [String] = []
    /// Binary messages clients sent, in arrival order.
    public var clientBinaryMessages: [[UInt8]] = []
    /// Close statuses clients sent.
    public var clientCloses: [CloseStatus?] = []
    /// Connections whose script has been sent to the end (before the ending: close, hold, …).
    public var scriptsCompleted = 0
    /// Messages sent by `.blast` endings.
    public var blasted = 0
    /// The subscription after each subscription request (valid or not) and after streams named
    /// in a Binance URL, in order: what a client asked for and what the venue made of it.
    public var subscriptions: [SubscriptionState] = []
    /// Rules of the venue a client broke (each followed by the venue's close, drop or refusal).
    public var violations: [Violation] = []
    /// Ping frames the emulation sent (Binance's keepalive).
    public var serverPings = 0
    /// Payloads of the pong frames clients sent, in order.
    public var clientPongs: [[UInt8]] = []
    /// Close frames the server sent (by the emulation, the script or the ending).
    public var serverCloses: [CloseStatus] = []
    /// The `Sec-WebSocket-Extensions` of each upgrade request (its fields joined with ", ";
    /// empty when it had none), in arrival order (refused requests included).
    public var extensionOffers: [String] = []
    /// The permessage-deflate agreements, as the 101 stated them (`Sec-WebSocket-Extensions`),
    /// one per connection that agreed, in order (`Options.compression`).
    public var deflateAgreements: [String] = []
    /// Data messages the server sent compressed (RSV1), every connection and blast included.
    public var compressedMessages = 0
  }

  /// A connection's subscription after one request.
  public struct SubscriptionState: Sendable, Equatable {
    /// The connection, counted from 0 in the order they were accepted.
    public var connection: Int
    /// The client's message (or, for streams named in a Binance URL, the request target).
    public var request: String
    /// What is subscribed afterwards, in the venue's spelling and subscription order: Finnhub
    /// symbols, Upbit codes, Binance stream names, Coinbase product ids of the `ticker` channel.
    public var subscribed: [String]

    public init(connection: Int, request: String, subscribed: [String]) {
      self.connection = connection
      self.request = request
      self.subscribed = subscribed
    }
  }

  /// A venue rule a client broke.
  public enum Violation: Sendable, Equatable {
    /// More client messages than the venue allows in its window (Binance: more than 5 a second,
    /// pings and pongs included; Upbit: more than 5 requests a second or 100 a minute; Kraken:
    /// more requests than the venue's `messagesPerWindow`).
    case tooManyMessages
    /// A Binance ping went unanswered (no pong echoing its payload) past the pong deadline.
    case missedPong
    /// No subscription within Coinbase's deadline (or OKX's 30 s) after connecting.
    case noSubscription
    /// No request within Kraken's idle timeout (the connection is then closed).
    case idle
    /// OKX: nothing pushed to the client for 30 s (a quiet instrument, and no `ping` from the
    /// client to answer).
    case quiet
    /// A request the venue refused, with the venue's name for the error (Upbit `WRONG_FORMAT`,
    /// Binance `Invalid request: invalid stream`, Coinbase `X is not a valid product`).
    case invalidRequest(String)
    /// An upgrade request the venue refused (Upbit: an `Origin` header; Binance: an unknown
    /// path or stream).
    case refusedHandshake(String)
  }
}

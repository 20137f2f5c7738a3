import Recording
import Venues
import WebSocketServer
import WebSocketWire

/// What one venue does with one connection, as a pure state machine: the upgrade request, each
/// client message or control frame, each scripted server message and the passing of time go in;
/// frames to send, closes and drops come out. No sockets, threads or clocks inside: time is the
/// `Duration` since the connection was accepted, given by the caller, so tests drive every
/// deadline with explicit instants.
///
/// `ServerConnection` runs one per connection (chosen by `FeedServer.Options.emulation`).
protocol VenueEmulator: Sendable {
  /// Whether to accept the upgrade request (its target and header fields). Called once, after
  /// the plan and the script have agreed to a 101.
  mutating func admit(_ request: ServerHandshake.Request) -> Admission

  /// One message or control frame from the client, at `now`. Pings are answered with a pong by
  /// the connection itself (RFC 6455); the emulator only hears of them (Binance counts them).
  mutating func receive(_ input: ClientInput, at now: Duration) -> [EmulatorAction]

  /// A scripted server step (text, binary, ping or close) as this connection gets it: filtered
  /// to the subscription, rewritten to the venue's wire format, or dropped (replies the script
  /// recorded, such as acknowledgements and errors, come from `receive` instead).
  mutating func outgoing(_ step: SessionScript.Step, at now: Duration) -> [EmulatorAction]

  /// What is due at `now`: server pings, pong and subscribe deadlines, delayed closes.
  mutating func tick(at now: Duration) -> [EmulatorAction]

  /// When `tick` next has something to do; nil when nothing is scheduled.
  var nextDeadline: Duration? { get }

  /// Whether the venue has decided to end the connection (a close sent, or one due, as Upbit's
  /// after an error): the replay and the ending stop, and the connection waits for it.
  var isClosing: Bool { get }

  /// Whether the replay may start: the venue sends nothing before a subscription. `awaiting`
  /// is `FeedServer.Options.awaitSubscriptions` (at least 1).
  func isReady(awaiting: Int) -> Bool

  /// Subscription requests seen so far (valid or not); the connection records the state after
  /// each one.
  var requestCount: Int { get }

  /// The current subscription in the venue's spelling, in the order it was made.
  var subscribed: [String] { get }

  /// The last scripted price (as text) and trade time per symbol, in the spelling of
  /// `subscribed`: where the synthetic stream starts.
  var lastPrices: [String: (price: String, time: Int64)] { get }

  /// The messages that carry `trades` (a step of the synthetic stream) for this connection.
  mutating func synthetic(_ trades: [SyntheticTrade]) -> [EmulatorAction]

  /// Where the synthetic stream starts `symbol` (subscribed, in the spelling of `subscribed`,
  /// and never traded by the script) when the server accepts any symbol
  /// (`FeedServer.Options.acceptAnySymbol`); nil when the venue would never trade it (a symbol
  /// that is not well formed, a stream that carries no trades).
  func walkStart(for symbol: String) -> WalkStart?

  /// The venue's own keepalive during the synthetic stream and how often, if it has one
  /// (Finnhub's `{"type":"ping"}` every 60 s).
  var syntheticKeepalive: (action: EmulatorAction, seconds: Double)? { get }

  /// What `symbol` (in the spelling of `subscribed`) trades, where the emulator spells it
  /// otherwise than the venue's clients (Binance's `btcusdt@trade`); nil: ask the provider.
  func market(of symbol: String) -> Market?
}

extension VenueEmulator {
  func market(of symbol: String) -> Market? { nil }
}

/// A client frame, as the emulator hears of it.
enum ClientInput: Sendable, Equatable {
  case text(String)
  case binary([UInt8])
  case ping([UInt8])
  case pong([UInt8])
}

/// What an emulator wants done on its connection.
enum EmulatorAction: Sendable, Equatable {
  /// A text frame.
  case text(String)
  /// A binary frame holding this text as UTF-8 (Upbit sends JSON this way).
  case binary(String)
  /// A ping frame with this payload.
  case ping([UInt8])
  /// A close frame with this status; the connection then ends (the client's answer is awaited
  /// a few seconds).
  case close(CloseStatus)
  /// The TCP connection is dropped without a close frame.
  case drop
  /// The client broke one of the venue's rules (recorded; the close or drop follows).
  case violation(FeedServer.Violation)
}

/// An emulator's answer to the upgrade request.
enum Admission: Sendable, Equatable {
  case accept
  case refuse(status: Int, reason: String, violation: FeedServer.Violation)
}

extension Duration {
  /// `seconds` (fractional) as a `Duration`.
  static func seconds(fractional seconds: Double) -> Duration {
    .nanoseconds(Int64((seconds * 1e9).rounded()))
  }

  /// This duration in seconds.
  var fractionalSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// The earliest of some optional instants.
func earliest(_ instants: Duration?...) -> Duration? {
  instants.compactMap { $0 }.min()
}

import Recording
import WebSocketWire

/// What one connection to a `FeedServer` gets: the nth connection uses the nth plan of
/// `FeedServer.Options.plans` (the last plan repeats). Fault-injection tests script reconnects
/// with these: a refused or stalled handshake, a drop without a close frame, a half-open peer…
public struct ConnectionPlan: Sendable, Equatable {
  public enum Handshake: Sendable, Equatable {
    /// The script's answer: 101, or the status of its `http` step (e.g. 401).
    case script
    /// Refuse with this status (and `Retry-After` seconds when given), then close.
    case refuse(status: Int, reason: String, retryAfter: Int?)
    /// Start a 101 response and never finish its header block (the connection stays open).
    case stall
    /// Answer `status` with this reason phrase and these header fields (written as given, e.g.
    /// any `Retry-After` text), then close.
    case respond(status: Int, reason: String, fields: [HTTPHead.Field])
    /// Accept with this status line instead of `HTTP/1.1 101 Switching Protocols`, and write
    /// `trailing` (raw bytes: frames) in the same write as the response head, before anything the
    /// client sends is read. The script follows as usual.
    case accept(statusLine: String, trailing: [UInt8])
  }

  public enum Ending: Sendable, Equatable {
    /// Close with this status and wait for the client's answer.
    case close(CloseStatus)
    /// Keep the connection open, answering pings, until the client or `stop()` ends it.
    case hold
    /// Keep trading: a seeded random walk of the script's symbols, one batch per interval.
    case synthetic(seed: UInt64, interval: Double)
    /// Trade every subscribed symbol the venue would trade at `market`'s prices, one batch per
    /// interval, from the start: the script's steps are not played (its messages remain the
    /// emulator's templates).
    case market(DemoMarket, interval: Double)
    /// Drop the TCP connection without a close frame (the client sees 1006).
    case drop
    /// Go silent and stop answering pings, keeping TCP open: a half-open connection as the
    /// client sees it.
    case unresponsive
    /// Send the first bytes of a frame and then nothing, answering nothing.
    case stallMidFrame
    /// Close with 1000, then send a text frame anyway.
    case closeThenData
    /// Hostile: stop reading the client's frames and send 125-byte pings as fast as the socket
    /// takes them, never reading the pongs, until the client goes away.
    case pingFlood
    /// Load generation: send `count` distinct one-trade Finnhub messages, pre-framed, as fast
    /// as the socket takes them, then end as `then` says (close 1000, drop, …).
    indirect case blast(count: Int, then: Ending)
    /// Load generation like `blast`, but each message carries several trades over several
    /// symbols, shaped by `mix` (built on the fly, deterministic per seed).
    indirect case mixedBlast(count: Int, mix: BlastMix, then: Ending)
    /// Load generation like `blast`, in `venue`'s wire format (its `blastMessage`).
    indirect case venueBlast(VenueEmulation, count: Int, then: Ending)
    /// Load generation like `blast`, of messages framed before the server listened.
    indirect case prebuiltBlast(PrebuiltBlast, then: Ending)
    /// Send one message (a text frame, or a binary one for `.binary`), then end as `then` says.
    indirect case send(SessionScript.Kind, String, then: Ending)

    /// Binance's notice of a planned close, `{"e":"serverShutdown","E":<eventTime>}`, then `then`
    /// (by default a close with 1001).
    public static func binanceServerShutdown(
      eventTime: Int64 = 1_789_404_800_000,
      then: Ending = .close(CloseStatus(code: .goingAway, reason: ""))
    ) -> Ending {
      .send(.text, #"{"e":"serverShutdown","E":\#(eventTime)}"#, then: then)
    }

    /// An Upbit error message (a binary frame) followed by a close with 1000, as Upbit ends a
    /// connection after a bad request.
    public static func upbitError(name: String, message: String) -> Ending {
      .send(
        .binary, UpbitEmulator.error(name: name, message: message),
        then: .close(CloseStatus(code: .normalClosure, reason: "")))
    }
  }

  /// Something the server does at a given point of the connection, whatever the script's pace:
  /// e.g. drop the connection once the client has sent its third message, to see what it sends
  /// after reconnecting.
  public struct Cue: Sendable, Equatable {
    public enum Trigger: Sendable, Equatable {
      /// Once the client has sent this many data messages (text or binary) on the connection,
      /// after the venue has answered the last of them.
      case clientMessages(Int)
      /// Once this many feed messages (the data messages of the script and of the synthetic
      /// stream that the venue let through, not its replies) have been sent on the connection.
      case feedMessages(Int)
    }
    public enum Action: Sendable, Equatable {
      case text(String)
      /// A binary frame holding this text as UTF-8.
      case binary(String)
      case close(CloseStatus)
      /// Drop the TCP connection without a close frame.
      case drop
    }

    public var trigger: Trigger
    public var actions: [Action]

    public init(_ trigger: Trigger, _ actions: [Action]) {
      self.trigger = trigger
      self.actions = actions
    }
  }

  public var handshake: Handshake
  /// The session to replay; nil = the server's script.
  public var script: SessionScript?
  public var ending: Ending
  /// Done when their trigger comes, each once, besides the script and the ending.
  public var cues: [Cue]

  public init(handshake: Handshake = .script, script: SessionScript? = nil, cues: [Cue] = [], ending: Ending)
  {
    self.handshake = handshake
    self.script = script
    self.cues = cues
    self.ending = ending
  }
}

import WebSocketClient

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
  }

  public var handshake: Handshake
  /// The session to replay; nil = the server's script.
  public var script: SessionScript?
  public var ending: Ending

  public init(handshake: Handshake = .script, script: SessionScript? = nil, ending: Ending) {
    self.handshake = handshake
    self.script = script
    self.ending = ending
  }
}

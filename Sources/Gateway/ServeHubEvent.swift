import FeedRuntime
import Venues
import WebSocketWire

extension ServeHub {
  /// What happens, for the status lines on stderr. Client-controlled text is in `String`s the
  /// caller must escape (Diagnostics does).
  public enum Event: Sendable, Equatable {
    case connected(client: Int, open: Int)
    /// The client left (its close status, nil without one) or the server ended it (`why`).
    case disconnected(client: Int, status: CloseStatus?, why: String?, open: Int)
    /// An upgrade refused before it happened (401, 503, 400).
    case refused(status: Int, why: String)
    /// A request (verbose).
    case request(client: Int, ServeRequest)
    /// A client's message was refused (verbose): what it was told.
    case clientError(client: Int, String)
    /// The upstream subscription changed (verbose).
    case upstream(subscribed: [String], unsubscribed: [String])
    /// The venue refused a symbol: the clients that asked were told, and no longer follow it.
    case venueRefused(symbol: String, clients: [Int])
  }
}

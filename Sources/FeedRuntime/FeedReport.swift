import Venues
import WebSocketClient

/// What happened in a feed that a person may want to know, as data (`ReportWriter` turns it into
/// lines on stderr, rate-limiting what a server can repeat).
public enum FeedReport: Sendable, Equatable {
  /// A connection is open and subscribed (attempt 0 is the first connection).
  case connected(attempt: Int, symbols: [String])
  /// The connection was lost; a reconnect follows.
  case disconnected(reason: DisconnectReason, attempt: Int, retryIn: Duration)
  /// The venue reported an error (the run goes on unless it is fatal).
  case venueError(VenueError)
  /// The venue refused a change made while running: those symbols are no longer subscribed.
  case changeRefused(VenueError, symbols: [String])
  /// The venue announced it is closing the connection; the feed reconnects at once.
  case closingSoon(String)
  /// Some entries of a price message were malformed (the first few described, and how many).
  case partial(dropped: [String], count: Int)
  /// A message that could not be read.
  case malformed(String)
  /// A well-formed message of a type nothing here uses.
  case ignored(String)
  /// Trades for symbols that are not subscribed were dropped: how many, and one of them.
  case notSubscribed(count: Int, example: String)
  /// The subscription changed (symbols added and removed), and what it is now.
  case subscriptionChanged(added: [String], removed: [String], now: [String])
  /// The current subscription, asked for with `?`.
  case currentSet([String])
  /// A control line that changed nothing, and why.
  case controlError(ControlLineError)
  /// A subscribed symbol gave no quote within the venue's first-quote deadline (Upbit accepts
  /// codes it does not know without a word).
  case noQuoteYet(symbol: String, after: Duration)
  /// `--stale-after`: a followed symbol had no price for `after` while its venue was connected
  /// and sending (reported once, until it recovers).
  case stale(symbol: String, after: Duration)
  /// A stale symbol's price came, `after` its silence began.
  case recovered(symbol: String, after: Duration)
  /// An `--alert` or `--until` condition became true.
  case alert(AlertBook.Firing)
}

import Venues
import WebSocketWire

/// One `--url`: a WebSocket endpoint for the run's venue, or (`VENUE=URL`) for one venue of a run
/// of several.
public struct VenueEndpoint: Sendable, Equatable, CustomStringConvertible {
  /// The venue's name; nil for a plain URL.
  public var venue: String?
  public var url: WebSocketURL

  public init(venue: String?, url: WebSocketURL) {
    self.venue = venue
    self.url = url
  }

  /// `wss://…`, or `binance=ws://…` where the part before `=` names a venue.
  public static func parse(_ text: String) -> VenueEndpoint? {
    if let equals = text.firstIndex(of: "="), !text[..<equals].contains(":"),
      ProviderCatalog.provider(named: text[..<equals].lowercased()) != nil
    {
      return SettingValue.url(String(text[text.index(after: equals)...])).map {
        VenueEndpoint(venue: text[..<equals].lowercased(), url: $0)
      }
    }
    return SettingValue.url(text).map { VenueEndpoint(venue: nil, url: $0) }
  }

  public var description: String { (venue.map { $0 + "=" } ?? "") + url.description }
}

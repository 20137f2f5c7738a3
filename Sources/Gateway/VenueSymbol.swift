/// A symbol as quotes carry it: its venue (`Quote.venue`, an index into the source's venues) and
/// the venue's server spelling.
struct VenueSymbol: Hashable, Sendable {
  var venue: UInt8
  var server: String
}

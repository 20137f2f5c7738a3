import TickerSupport
import WebSocketClient

/// Pre-framed one-trade messages in each venue's wire format, for load generation
/// (`ConnectionPlan.Ending.venueBlast`, `feedserve --blast N --venue …`): distinct prices and
/// times, as a live feed of one market sends them (each venue's `blastMessage`).
extension BlastFrames {
  /// One batch of `messagesPerBatch` frames in each venue's format, built once.
  private static let batches: [Venue: [UInt8]] = Dictionary(
    uniqueKeysWithValues: Venue.allCases.map {
      ($0, $0 == .finnhub ? batch : frames(count: messagesPerBatch, venue: $0))
    })

  /// One batch of `messagesPerBatch` frames in `venue`'s format.
  static func batch(for venue: Venue) -> [UInt8] { batches[venue] ?? [] }

  /// `count` consecutive frames in `venue`'s format.
  static func frames(count: Int, venue: Venue) -> [UInt8] {
    if venue == .finnhub { return frames(count: count) }
    var out: [UInt8] = []
    out.reserveCapacity(count * 720)
    for i in 0..<count {
      out += FrameEncoder.encodeServerFrame(
        Frame(opcode: venue.emulated.blastOpcode, payload: Array(message(i, venue: venue).utf8)))
    }
    return out
  }

  /// The i-th message of `venue`'s blast.
  static func message(_ i: Int, venue: Venue) -> String { venue.emulated.blastMessage(i) }
}

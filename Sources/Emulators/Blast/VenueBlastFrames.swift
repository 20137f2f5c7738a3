import Synchronization
import TickerSupport
import WebSocketWire

/// Pre-framed one-trade messages in a venue's wire format, for load generation
/// (`ConnectionPlan.Ending.venueBlast`, `feedserve --blast N --venue …`): distinct prices and
/// times, as a live feed of one market sends them (each venue's `blastMessage`).
extension BlastFrames {
  /// One batch of `messagesPerBatch` frames per venue, built when first asked for.
  private static let batches = Mutex<[String: [UInt8]]>([:])

  /// One batch of `messagesPerBatch` frames in `venue`'s format.
  static func batch(for venue: VenueEmulation) -> [UInt8] {
    if let batch = batches.withLock({ $0[venue.provider.name] }) { return batch }
    let batch = frames(count: messagesPerBatch, venue: venue)
    batches.withLock { $0[venue.provider.name] = batch }
    return batch
  }

  /// `count` consecutive frames in `venue`'s format.
  static func frames(count: Int, venue: VenueEmulation) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count * 720)
    for i in 0..<count {
      out += FrameEncoder.encodeServerFrame(
        Frame(opcode: venue.blastOpcode, payload: Array(venue.blastMessage(i).utf8)))
    }
    return out
  }
}

import JSON

/// The subscription of a venue that answers each request with every code's latest message as its
/// `SNAPSHOT`, then streams `REALTIME` ones as they happen, a request replacing the whole
/// subscription (Upbit, Bithumb). It decides which message goes out, and as which; the venue's
/// emulator renders it in its own shapes.
struct SnapshotSubscription {
  /// The subscribed codes, in request order.
  private(set) var codes: [String] = []
  /// The latest message per code, from the replay and the synthetic stream.
  private(set) var latest: [String: JSONObject] = [:]
  /// Codes whose messages go out as they happen.
  private var realtimeCodes: Set<String> = []
  /// Codes whose next message is their snapshot.
  private var snapshotDue: Set<String> = []

  /// Replaces the subscription; returns the snapshots that can go out at once (the codes that
  /// have a latest message), in request order.
  mutating func replace(codes: [String], snapshot: Set<String>, realtime: Set<String>) -> [JSONObject] {
    self.codes = codes
    realtimeCodes = realtime
    snapshotDue = snapshot
    var snapshots: [JSONObject] = []
    for code in codes where snapshotDue.contains(code) {
      guard let message = latest[code] else { continue }
      snapshotDue.remove(code)
      snapshots.append(message)
    }
    return snapshots
  }

  /// Remembers `message` as `code`'s latest; returns the stream type it goes out as (`SNAPSHOT`
  /// when one is due, `REALTIME` when asked for), nil when it does not go out.
  mutating func receive(_ message: JSONObject, code: String) -> String? {
    latest[code] = message
    guard codes.contains(code) else { return nil }
    if snapshotDue.remove(code) != nil { return "SNAPSHOT" }
    return realtimeCodes.contains(code) ? "REALTIME" : nil
  }
}

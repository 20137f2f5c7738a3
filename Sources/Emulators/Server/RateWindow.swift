/// A sliding-window limit: at most `limit` events in any span of `window`. Pure; the caller
/// gives the instants.
struct RateWindow: Sendable, Equatable {
  let limit: Int
  let window: Duration
  /// Instants of the events inside the window, oldest first.
  private var recent: [Duration] = []

  init(limit: Int, window: Duration) {
    self.limit = max(1, limit)
    self.window = window
  }

  /// Counts one event at `now`; false when it is one too many (it is counted all the same).
  mutating func admit(at now: Duration) -> Bool {
    recent.removeAll { now - $0 >= window }
    recent.append(now)
    return recent.count <= limit
  }
}

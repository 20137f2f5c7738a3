import Synchronization

/// `ticker serve`'s upstreams by venue: those opened at start, waiting for their feeds, and every
/// one opened since, so that each demo server is stopped at the end.
final class UpstreamStore: Sendable {
  private let state = Mutex<(waiting: [Int: Upstream], all: [Upstream])>(([:], []))

  /// An upstream opened at start for venue `index`.
  func put(_ upstream: Upstream, at index: Int) {
    state.withLock { state in
      state.waiting[index] = upstream
      state.all.append(upstream)
    }
  }

  /// Venue `index`'s upstream opened at start, once.
  func take(at index: Int) -> Upstream? { state.withLock { $0.waiting.removeValue(forKey: index) } }

  /// One opened later.
  func keep(_ upstream: Upstream) { state.withLock { $0.all.append(upstream) } }

  /// Where venue `index`'s failed `--record` write is told (opened at start).
  func recording(of index: Int) -> RecordingTarget? { state.withLock { $0.waiting[index]?.recording } }

  func closeAll() {
    for upstream in state.withLock({ $0.all }) { upstream.close() }
  }
}

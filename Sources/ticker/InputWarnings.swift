import PriceFeed

/// Warnings about what the server sent (malformed JSON, wrong shapes, unknown message types):
/// every one is counted, at most a burst per kind is printed per window, and what was held back
/// is owned up to, on the next printed warning of that kind or in the summary at exit.
final class InputWarnings: @unchecked Sendable {
  // Only used from the runner's receive loop (one task).
  private var limiter = WarningLimiter<ContinuousClock.Instant>(burst: 5, window: .seconds(10))
  private let clock = ContinuousClock()
  private let diagnostics: Diagnostics

  init(diagnostics: Diagnostics) { self.diagnostics = diagnostics }

  func warn(_ kind: String, _ text: @autoclosure () -> String) {
    let decision = limiter.record(kind, at: clock.now)
    guard decision.emit else { return }
    let held = decision.suppressedBefore
    diagnostics.warning(text() + (held > 0 ? " (\(held) more like this not shown)" : ""))
  }

  /// Counts without printing unless `--verbose`.
  func count(_ kind: String, verbose text: @autoclosure () -> String) {
    _ = limiter.record(kind, at: clock.now)
    diagnostics.info(text())
  }

  /// One line per kind that had warnings held back and never reported.
  func summary() {
    for (kind, held) in limiter.pendingSuppressed.sorted(by: { $0.key < $1.key }) {
      let total = limiter.totals[kind] ?? held
      diagnostics.warning("\(total) \(kind) in all (\(held) not shown)")
    }
  }
}

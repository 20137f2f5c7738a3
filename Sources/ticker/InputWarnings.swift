import PriceFeed

/// Warnings about what the server sent (malformed JSON, wrong shapes, unknown message types):
/// every one is counted, at most a burst per kind is printed per window, and what was held back
/// is owned up to, on the next printed warning of that kind or in the summary at exit.
final class InputWarnings: @unchecked Sendable {
  // Only used from the runner's receive loop (one task).
  private var limiter = WarningLimiter<ContinuousClock.Instant>(burst: 5, window: .seconds(10))
  private let clock = ContinuousClock()
  private let diagnostics: Diagnostics
  /// Kinds that are only counted (printed with `--verbose`).
  private var counted: Set<String> = []

  init(diagnostics: Diagnostics) { self.diagnostics = diagnostics }

  func warn(_ kind: String, _ text: @autoclosure () -> String) {
    let decision = limiter.record(kind, at: clock.now)
    guard decision.emit else { return }
    let held = decision.suppressedBefore
    diagnostics.warning(text() + (held > 0 ? " (\(held) more like this not shown)" : ""))
  }

  /// Counts without printing unless `--verbose`.
  func count(_ kind: String, verbose text: @autoclosure () -> String) {
    counted.insert(kind)
    let decision = limiter.record(kind, at: clock.now)
    guard diagnostics.verbose, decision.emit else { return }
    let held = decision.suppressedBefore
    diagnostics.info(text() + (held > 0 ? " (\(held) more like this not shown)" : ""))
  }

  /// One line per warned kind that had warnings held back and never reported; with `--verbose`,
  /// the totals of the counted kinds too.
  func summary() {
    for (kind, held) in limiter.pendingSuppressed.sorted(by: { $0.key < $1.key })
    where !counted.contains(kind) {
      let total = limiter.totals[kind] ?? held
      diagnostics.warning("\(total) \(kind) in all (\(held) not shown)")
    }
    for kind in counted.sorted() {
      diagnostics.info("\(limiter.totals[kind] ?? 0) \(kind) in all")
    }
  }
}

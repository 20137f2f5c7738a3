import PriceFeed

/// The thin async shell around the synchronous `PriceStage`: stamps quotes with the clock,
/// runs a timer for debounce deadlines, and hands what is due to the sink.
///
/// One timer at a time suffices: a new pending quote's deadline is never earlier than the
/// earliest one already pending (every deadline is "arrival + interval" or "first arrival +
/// max wait", and arrivals only move forward), so the timer never needs to be moved earlier.
actor PipelineDriver {
  private var stage: PriceStage<ContinuousClock.Instant>
  private let clock = ContinuousClock()
  private let sink: QuoteSink
  private let onStop: @Sendable (QuoteSink.Stop) -> Void
  private var timer: Task<Void, Never>?
  private var stopped = false

  init(
    stage: PriceStage<ContinuousClock.Instant>, sink: QuoteSink,
    onStop: @escaping @Sendable (QuoteSink.Stop) -> Void
  ) {
    self.stage = stage
    self.sink = sink
    self.onStop = onStop
  }

  func receive(_ quotes: [Quote]) {
    guard !stopped else { return }
    deliver(stage.receive(quotes, at: clock.now))
    scheduleTimer()
  }

  /// Prints whatever is still pending (on shutdown: nothing valid is lost).
  func flush() {
    timer?.cancel()
    timer = nil
    guard !stopped else { return }
    deliver(stage.flush())
  }

  var linesWritten: Int { sink.written }

  private func deliver(_ quotes: [Quote]) {
    guard !quotes.isEmpty else { return }
    do {
      try sink.emit(quotes)
    } catch {
      stopped = true
      timer?.cancel()
      onStop(error)
    }
  }

  private func scheduleTimer() {
    guard timer == nil, !stopped, let deadline = stage.nextDeadline else { return }
    timer = Task { [clock] in
      try? await clock.sleep(until: deadline, tolerance: nil)
      if Task.isCancelled { return }
      self.fire()
    }
  }

  private func fire() {
    timer = nil
    guard !stopped else { return }
    deliver(stage.tick(at: clock.now))
    scheduleTimer()
  }
}

/// The thin shell around `WatchdogPacer`: sleeps on `clock` until each tick and pings when the
/// pacer says so, until the calling task is cancelled. The caller picks where it runs (a task on
/// a thread of its own, so that a busy pool never delays a ping).
public enum WatchdogLoop {
  public static func run<C: Clock>(
    _ pacer: WatchdogPacer<C.Instant>, clock: C, isAlive: () -> Bool, ping: () -> Void
  ) async where C.Duration == Duration {
    var pacer = pacer
    while !Task.isCancelled {
      do { try await clock.sleep(until: pacer.nextTick, tolerance: nil) } catch { return }
      if pacer.tick(at: clock.now, isAlive: isAlive) { ping() }
    }
  }
}

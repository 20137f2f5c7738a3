import Foundation

extension Process {
  /// Waits at most `seconds` for the process to exit; false when it has not (and then
  /// `terminationStatus` must not be read: Foundation traps on it).
  ///
  /// Foundation notices a child's exit inside `waitUntilExit()` (it drives a run loop there), so
  /// that call does the waiting, on a thread of its own; the caller's wait is bounded. A full
  /// run was once seen with `waitUntilExit()` spinning for many minutes: with this, such a
  /// child becomes a reported test issue instead of a hung test run.
  @discardableResult
  func waitForExit(within seconds: Double) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      self.waitUntilExit()
      done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
  }
}

extension Process {
  /// `run()`, after putting this test process on a single malloc arena (once).
  ///
  /// Foundation's `Process.run()` on Linux copies 256 bytes of every `/proc/self/fd` entry's
  /// name whatever its length (swift-corelibs-foundation#5472, fixed upstream after 6.3.1). When
  /// the last entry read sits near the end of a mapped heap region, the copy runs into an
  /// unmapped page and the whole test run dies with SIGSEGV: seen twice in about 17 full runs
  /// here. Thread arenas are separate mmapped heaps, each with its own end; with one arena,
  /// the directory buffer comes from the main heap, whose end has room after it. This makes the
  /// crash rarer; spawning children without Foundation would end it.
  func runOnOneArena() throws {
    _ = Process.oneArena
    try run()
  }

  private static let oneArena: Bool = {
    // mallopt is not exported by Swift's Glibc module; M_ARENA_MAX is -8 in <malloc.h>.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    return unsafeBitCast(symbol, to: Mallopt.self)(-8, 1) == 1
  }()
}

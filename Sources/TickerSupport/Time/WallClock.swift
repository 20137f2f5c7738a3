#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The wall clock: what a price was received at, a recording's start, an HTTP-date in
/// `Retry-After`. Everything that measures durations uses a `Clock` instead.
public enum WallClock {
  /// Seconds since the Unix epoch.
  public static func epochSeconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec)
  }

  /// Milliseconds since the Unix epoch.
  public static func epochMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }
}

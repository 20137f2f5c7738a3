import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The standard `process_*` families every Prometheus client library exports (resident and
/// virtual memory, CPU seconds, start time, open and maximum descriptors), read from `/proc/self`
/// on Linux. Elsewhere there are none (the endpoint serves the rest as usual).
public enum ProcessMetrics {
  /// The figures, each nil when it could not be read (it is then left out, never guessed).
  struct Figures: Sendable, Equatable {
    var residentBytes: Double?
    var virtualBytes: Double?
    var cpuSeconds: Double?
    var startTimeSeconds: Double?
    var openDescriptors: Double?
    var maximumDescriptors: Double?
  }

  /// Appends this process's families to `text`.
  public static func append(to text: inout PrometheusText) {
    #if os(Linux)
      append(readFigures(), to: &text)
    #endif
  }

  /// Appends the families of `figures` (those it has).
  static func append(_ figures: Figures, to text: inout PrometheusText) {
    let families: [(String, PrometheusText.Kind, String, Double?)] = [
      (
        "process_cpu_seconds_total", .counter, "Total user and system CPU time spent in seconds.",
        figures.cpuSeconds
      ),
      ("process_open_fds", .gauge, "Number of open file descriptors.", figures.openDescriptors),
      ("process_max_fds", .gauge, "Maximum number of open file descriptors.", figures.maximumDescriptors),
      ("process_virtual_memory_bytes", .gauge, "Virtual memory size in bytes.", figures.virtualBytes),
      ("process_resident_memory_bytes", .gauge, "Resident memory size in bytes.", figures.residentBytes),
      (
        "process_start_time_seconds", .gauge, "Start time of the process since unix epoch in seconds.",
        figures.startTimeSeconds
      ),
    ]
    for (name, kind, help, value) in families {
      guard let value else { continue }
      text.family(name, kind, help: help)
      text.sample(name, [:], value)
    }
  }

  /// The figures of `/proc/self/stat` and `/proc/stat`'s texts, with the page size and the clock
  /// ticks a second (`sysconf`). Pure.
  static func figures(stat: String, procStat: String?, pageSize: Int, ticksPerSecond: Int) -> Figures {
    var figures = Figures()
    guard let parsed = try? ProcSelfStat.parse(stat), ticksPerSecond > 0 else { return figures }
    let ticks = Double(ticksPerSecond)
    figures.residentBytes = Double(parsed.residentPages) * Double(pageSize)
    figures.virtualBytes = Double(parsed.virtualBytes)
    figures.cpuSeconds = Double(parsed.userTicks + parsed.systemTicks) / ticks
    if let procStat, let boot = try? ProcSelfStat.bootTime(procStat) {
      figures.startTimeSeconds = Double(boot) + Double(parsed.startTicks) / ticks
    }
    return figures
  }

  #if os(Linux)
    /// Reads `/proc/self/stat`, `/proc/stat`, `/proc/self/fd` and the descriptor limit.
    static func readFigures() -> Figures {
      let stat = (try? WholeFile.read("/proc/self/stat", limit: 64 << 10)).map {
        String(decoding: $0, as: UTF8.self)
      }
      let procStat = (try? WholeFile.read("/proc/stat", limit: 1 << 20)).map {
        String(decoding: $0, as: UTF8.self)
      }
      var figures = figures(
        stat: stat ?? "", procStat: procStat, pageSize: sysconf(Int32(_SC_PAGESIZE)),
        ticksPerSecond: sysconf(Int32(_SC_CLK_TCK)))
      figures.openDescriptors = openDescriptors().map(Double.init)
      var limit = rlimit()
      // RLIM_INFINITY is all ones (Swift cannot import the macro).
      if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
        figures.maximumDescriptors = limit.rlim_cur == rlim_t.max ? .infinity : Double(limit.rlim_cur)
      }
      return figures
    }

    /// The entries of `/proc/self/fd` but the one its own listing holds open.
    private static func openDescriptors() -> Int? {
      guard let directory = opendir("/proc/self/fd") else { return nil }
      defer { closedir(directory) }
      let own = dirfd(directory)
      var count = 0
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let fd = Int32(name), fd != own else { continue }
        count += 1
      }
      return count
    }
  #endif
}

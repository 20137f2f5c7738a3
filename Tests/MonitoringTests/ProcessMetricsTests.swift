import Testing

@testable import Monitoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct ProcessMetricsTests {
  /// A `/proc/self/stat` line whose command name holds spaces and parentheses.
  static let stat =
    "4242 (tick (er) x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 125 0 0 20 0 9 0 "
    + "123456 1048576000 2560 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n"

  @Test func parsesStat() throws {
    let stat = try ProcSelfStat.parse(Self.stat)
    #expect(
      stat
        == ProcSelfStat(
          userTicks: 250, systemTicks: 125, startTicks: 123456, virtualBytes: 1_048_576_000,
          residentPages: 2560))
  }

  @Test func malformedStat() {
    #expect(throws: ProcParseError.self) { try ProcSelfStat.parse("4242 tick S 1") }
    #expect(throws: ProcParseError.self) { try ProcSelfStat.parse("4242 (tick) S 1 2 3") }
    #expect(throws: ProcParseError.self) {
      try ProcSelfStat.parse("1 (x) S 1 1 1 0 -1 0 0 0 0 0 -250 125 0 0 20 0 9 0 5 6 7 8\n")
    }
  }

  @Test func bootTime() throws {
    let text = "cpu  1 2 3\nintr 5 6\nctxt 99\nbtime 1765432100\nprocesses 5\n"
    #expect(try ProcSelfStat.bootTime(text) == 1_765_432_100)
    #expect(throws: ProcParseError.self) { try ProcSelfStat.bootTime("cpu 1 2\nbtimex 5\n") }
  }

  @Test func exposition() {
    let figures = ProcessMetrics.figures(
      stat: Self.stat, procStat: "btime 1765432100\n", pageSize: 4096, ticksPerSecond: 100)
    var text = PrometheusText()
    ProcessMetrics.append(figures, to: &text)
    #expect(
      text.text == """
        # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
        # TYPE process_cpu_seconds_total counter
        process_cpu_seconds_total 3.75
        # HELP process_virtual_memory_bytes Virtual memory size in bytes.
        # TYPE process_virtual_memory_bytes gauge
        process_virtual_memory_bytes 1048576000
        # HELP process_resident_memory_bytes Resident memory size in bytes.
        # TYPE process_resident_memory_bytes gauge
        process_resident_memory_bytes 10485760
        # HELP process_start_time_seconds Start time of the process since unix epoch in seconds.
        # TYPE process_start_time_seconds gauge
        process_start_time_seconds 1765433334.56

        """)
  }

  /// What cannot be read is left out, not guessed.
  @Test func unreadableFiguresAreLeftOut() {
    let figures = ProcessMetrics.figures(stat: "garbage", procStat: nil, pageSize: 4096, ticksPerSecond: 100)
    #expect(figures == ProcessMetrics.Figures())
    var text = PrometheusText()
    ProcessMetrics.append(figures, to: &text)
    #expect(text.text.isEmpty)
  }

  #if os(Linux)
    /// This very process, read for real: figures within what is plausible for a test run.
    @Test func thisProcess() throws {
      let figures = ProcessMetrics.readFigures()
      let resident = try #require(figures.residentBytes)
      #expect(resident > Double(1 << 20) && resident < Double(64 << 30))
      #expect(try #require(figures.virtualBytes) >= resident)
      #expect(try #require(figures.cpuSeconds) > 0)
      let start = try #require(figures.startTimeSeconds)
      let now = Double(time(nil))
      #expect(start <= now + 1 && start > now - 86400)
      let open = try #require(figures.openDescriptors)
      #expect(open >= 3)
      #expect(try #require(figures.maximumDescriptors) >= open)
    }
  #endif
}

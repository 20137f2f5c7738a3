import Foundation
import TestSupport
import Testing

/// The static build never unwinds its main thread: `dispatchMain()` would end it with
/// pthread_exit, and in a static executable libgcc's unwinder then reads and sorts every frame
/// description in `.eh_frame` (1.5 MB resident for nothing). Its main thread waits instead
/// (`Sources/ticker/main.swift`). Checked on a running ticker's page tables.
@Suite(
  "static build: a run leaves .eh_frame unread",
  .enabled(if: StaticBuild.isAvailable, StaticBuild.skipReason), .timeLimit(.minutes(1)))
struct StaticBuildUnwindTests {
  /// `.eh_frame`'s address and size in the static build (`readelf -SW`).
  static func ehFrame() async throws -> (address: UInt64, size: UInt64) {
    let readelf = try await Spawned.run(
      "/usr/bin/readelf", ["-SW", StaticBuild.executable], standardInput: .null, timeout: 60)
    try #require(readelf.termination == .exited(0), "\(readelf.errorText)")
    for line in readelf.outputText.split(separator: "\n") {
      // [25] .eh_frame  PROGBITS  <address> <offset> <size> ...
      let fields = line.split(separator: " ")
      guard let name = fields.firstIndex(of: ".eh_frame"), fields.count > name + 4 else { continue }
      guard let address = UInt64(fields[name + 2], radix: 16), let size = UInt64(fields[name + 4], radix: 16)
      else { continue }
      return (address, size)
    }
    Issue.record("no .eh_frame in \(readelf.outputText)")
    throw POSIXError(.ENOENT)
  }

  /// How many of the pages in `range` are mapped in process `pid` (`/proc/PID/pagemap`: bit 63
  /// of each page's entry, readable without privileges).
  static func mappedPages(pid: Int32, address: UInt64, size: UInt64) throws -> (mapped: Int, pages: Int) {
    let first = address / 4096
    let last = (address + size - 1) / 4096
    let count = Int(last - first + 1)
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/pagemap"))
    defer { try? handle.close() }
    try handle.seek(toOffset: first * 8)
    let data = try handle.read(upToCount: count * 8) ?? Data()
    let mapped = data.withUnsafeBytes { raw in
      (0..<raw.count / 8).filter {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) >> 63 == 1
      }
      .count
    }
    return (mapped, count)
  }

  @Test("while prices flow, at most a tenth of .eh_frame's pages are mapped (before: all of them)")
  func ehFrameStaysUnread() async throws {
    let frame = try await Self.ehFrame()
    #expect(frame.size > 100_000, "an .eh_frame this small proves nothing: \(frame.size) bytes")
    let ticker = try RunningTicker(["--demo", "--every-trade"], program: StaticBuild.executable)
    #expect(await ticker.lines(3).count == 3)
    let pid = try #require(ticker.pid)
    let (mapped, pages) = try Self.mappedPages(pid: pid, address: frame.address, size: frame.size)
    #expect(pages > 0)
    #expect(mapped * 10 <= pages, "\(mapped) of \(pages) pages of .eh_frame are mapped")
    ticker.signal(SIGTERM)
    #expect(await ticker.exit().status == 143)
  }
}

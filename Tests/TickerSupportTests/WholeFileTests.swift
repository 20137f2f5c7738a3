import Foundation
import Testing

@testable import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one whole-file reader: regular files only, never blocking, bounded.
@Suite("WholeFile")
struct WholeFileTests {
  static func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("ticker-wholefile-\(UUID())-\(name)").path
  }

  @Test("a regular file is read whole, also past one read's chunk; an empty one is empty")
  func regular() throws {
    let path = Self.temporaryPath("data")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bytes = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try WholeFile.read(path, limit: 40_000) == bytes)
    #expect(WholeFile.problemReading(path) == nil)
    try Data().write(to: URL(fileURLWithPath: path))
    #expect(try WholeFile.read(path, limit: 0) == [])
  }

  @Test("one byte over the limit is refused")
  func tooLarge() throws {
    let path = Self.temporaryPath("big")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(repeating: 0x41, count: 1001).write(to: URL(fileURLWithPath: path))
    #expect(throws: WholeFileError.tooLarge(limit: 1000)) { try WholeFile.read(path, limit: 1000) }
    #expect(try WholeFile.read(path, limit: 1001).count == 1001)
  }

  @Test("missing, a directory and a FIFO nobody writes: refused at once, with what they are")
  func refused() throws {
    let missing = Self.temporaryPath("missing")
    #expect(throws: WholeFileError.missing) { try WholeFile.read(missing, limit: 10) }
    #expect(WholeFile.problemReading(missing) == .missing)
    let directory = FileManager.default.temporaryDirectory.path
    #expect(throws: WholeFileError.notRegularFile(kind: "a directory")) {
      try WholeFile.read(directory, limit: 10)
    }
    let fifo = Self.temporaryPath("fifo")
    try #require(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    #expect(throws: WholeFileError.notRegularFile(kind: "a FIFO")) { try WholeFile.read(fifo, limit: 10) }
    #expect(WholeFile.problemReading(fifo)?.description == "not a regular file (a FIFO)")
  }

  #if os(Linux)
    @Test("a /proc file, which reports size 0, is read to its end")
    func procFile() throws {
      let maps = try WholeFile.read("/proc/self/maps", limit: 4 << 20)
      #expect(!maps.isEmpty)
      #expect(maps.last == 0x0A)
    }
  #endif
}

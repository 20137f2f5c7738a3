@testable import CLI
@testable import FeedRuntime
@testable import JSON
@testable import Outputs
@testable import Venues

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads test fixtures from `Tests/Fixtures/`, located relative to this source file.
enum FixtureLoader {
  static var fixturesDirectory: String {
    var path = #filePath
    // .../Tests/PriceFeedTests/FixtureLoader.swift → .../Tests/Fixtures
    for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/Fixtures"
  }

  static var repositoryRoot: String {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
  }

  /// `TICKER_UPDATE_GOLDEN=1`: golden tests write what they expect instead of comparing.
  static var updatingGoldens: Bool { getenv("TICKER_UPDATE_GOLDEN").map { String(cString: $0) } == "1" }

  static func writeFile(_ path: String, _ text: String) {
    guard let file = fopen(path, "wb") else { return }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    _ = fwrite(bytes, 1, bytes.count, file)
  }

  static func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = fread(&chunk, 1, chunk.count, file)
      if n <= 0 { break }
      bytes += chunk[..<n]
    }
    return bytes
  }

  struct Line {
    var direction: String
    var kind: String
    var body: String
  }

  /// The recorded session's lines (`{"dir":"S>","kind":"text","after_ms":…,"body":"…"}`), after
  /// its header.
  static func session(_ name: String) throws -> [Line] {
    guard let bytes = readFile(fixturesDirectory + "/" + name) else {
      throw ShapeError("fixture \(name) not found")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return try text.split(separator: "\n").compactMap { raw throws -> Line? in
      let json = try JSONParser().parse(String(raw))
      if json["kind"]?.stringValue == "recording" { return nil }
      guard let dir = json["dir"]?.stringValue, let kind = json["kind"]?.stringValue,
        let body = json["body"]?.stringValue
      else { throw ShapeError("bad fixture line \(raw)") }
      return Line(direction: dir, kind: kind, body: body)
    }
  }
}

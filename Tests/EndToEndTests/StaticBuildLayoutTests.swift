import Foundation
import TestSupport
import Testing

/// The static build's code layout (`Scripts/build-static.sh` links with lld and
/// `Scripts/ticker.order`): the functions the ticker runs lie together at the start of its code,
/// so that the page-cache folios holding them are all of its code that a run maps.
@Suite(
  "static build: the functions that run come first",
  .enabled(if: StaticBuild.isAvailable, StaticBuild.skipReason), .timeLimit(.minutes(1)), .ownThread)
struct StaticBuildLayoutTests {
  /// This project's Swift modules, as their names begin mangled symbols (`$s11FeedRuntime...`).
  static let ownModules = [
    "ticker", "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "WebSocketServer",
    "Venues", "FeedRuntime", "Outputs", "Recording", "Gateway", "NATS", "NATSBridge", "CLI", "Emulators",
    "EnginePlugin", "TickerPluginABI",
  ]
  .map { "$s\($0.utf8.count)\($0)" }

  static func isOwn(_ symbol: String) -> Bool { ownModules.contains { symbol.hasPrefix($0) } }

  /// The static build's functions: (address, name).
  static func functions() async throws -> [(address: UInt64, name: String)] {
    let nm = try await Spawned.run(
      "/usr/bin/nm", ["--defined-only", StaticBuild.executable], standardInput: .null, timeout: 60)
    try #require(nm.termination == .exited(0), "\(nm.errorText)")
    return nm.outputText.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 3, "tTwW".contains(fields[1]), let address = UInt64(fields[0], radix: 16) else {
        return nil
      }
      return (address, String(fields[2]))
    }
  }

  @Test("Scripts/ticker.order names functions of this build, and the linker put them first")
  func orderedFunctionsComeFirst() async throws {
    let order = Set(
      try String(contentsOfFile: TestTools.repositoryRoot + "/Scripts/ticker.order", encoding: .utf8)
        .split(separator: "\n").map(String.init))
    let functions = try await Self.functions()
    // The file still describes the build: renamed or removed functions drop out of it unseen.
    let found = order.intersection(functions.map(\.name))
    #expect(
      found.count * 10 >= order.count * 9,
      "\(found.count) of \(order.count) functions in Scripts/ticker.order are in the static build: regenerate it (python3 Scripts/make-order-file.py)"
    )
    // Of this project's own functions, those in the order lie before most of the others (the
    // standard library's do not all move: most of them share one section).
    let own = functions.filter { Self.isOwn($0.name) }
    let ordered = own.filter { order.contains($0.name) }.map(\.address)
    let others = own.filter { !order.contains($0.name) }.map(\.address).sorted()
    try #require(!ordered.isEmpty && !others.isEmpty)
    let lastOrdered = try #require(ordered.max())
    let medianOther = others[others.count / 2]
    #expect(
      lastOrdered < medianOther,
      "the last ordered function at \(String(lastOrdered, radix: 16)), the others' median at \(String(medianOther, radix: 16)): was the order file given to lld?"
    )
  }
}

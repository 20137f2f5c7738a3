import Foundation
import JSON

/// Files under `Tests/Fixtures/`, and the golden files' update switch.
package enum Fixture {
  package static var directory: URL {
    URL(fileURLWithPath: TestTools.repositoryRoot).appendingPathComponent("Tests/Fixtures")
  }

  package static func text(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }

  /// `TICKER_UPDATE_GOLDEN=1`: golden tests write what they expect instead of comparing.
  package static var updatingGoldens: Bool {
    ProcessInfo.processInfo.environment["TICKER_UPDATE_GOLDEN"] == "1"
  }

  /// One line of a recorded session.
  package struct SessionLine: Sendable {
    package var direction: String
    package var kind: String
    package var body: String
  }

  /// A recorded session's lines (`{"dir":"S>","kind":"text","after_ms":…,"body":"…"}`) after its
  /// header, read here with the JSON parser alone, independently of the Recording module's reader.
  package static func session(_ name: String) throws -> [SessionLine] {
    try text(name).split(separator: "\n").compactMap { raw throws -> SessionLine? in
      let json = try JSONParser().parse(String(raw))
      if json["kind"]?.stringValue == "recording" { return nil }
      guard let dir = json["dir"]?.stringValue, let kind = json["kind"]?.stringValue,
        let body = json["body"]?.stringValue
      else { throw BadFixture(line: String(raw)) }
      return SessionLine(direction: dir, kind: kind, body: body)
    }
  }

  package struct BadFixture: Error, CustomStringConvertible {
    package var line: String
    package var description: String { "bad fixture line \(line)" }
  }
}

import Foundation
import Testing

/// Exit code 69 reads the same in `ticker --help` and in the README's exit-code table, whose row
/// may only add detail after the help's words and a colon.
@Suite("exit code 69: the same words in --help and the README")
struct ExitCodeWordingTests {
  static let readme = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("README.md")

  @Test("the README's row for 69 begins with --help's words for it")
  func unavailable() async throws {
    let help = try await TickerProcess.run(["--help"])
    #expect(help.status == 0)
    // `  66 config or CA file missing/unusable 69 the service cannot be used from here`
    let line = try #require(help.stdout.split(separator: "\n").first { $0.contains(" 69 ") })
    let after = try #require(line.range(of: " 69 ")).upperBound
    let helpWords = String(line[after...].split(separator: "  ").first ?? "")
      .trimmingCharacters(in: .whitespaces)
    #expect(helpWords.count > 10, "\(line)")

    let table = try String(contentsOf: Self.readme, encoding: .utf8)
    let row = try #require(table.split(separator: "\n").first { $0.hasPrefix("| 69 |") })
    let meaning = row.dropFirst("| 69 |".count).trimmingCharacters(in: .whitespaces)
    #expect(
      meaning == helpWords + " |" || meaning.hasPrefix(helpWords + ":"), "help: \(helpWords)\nREADME: \(row)")
  }
}

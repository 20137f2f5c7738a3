import CLI
import FeedRuntime
import Foundation
import Outputs
import TestSupport
import Testing
import Venues

/// The settings are declared once (`Settings.all`); everything that presents them must agree
/// with the declarations: `--help`, docs/exit-codes.md's table, `config.example.json` (in
/// `ConfigTests`) and the shell completions, which are also loaded by the shells themselves.
/// `TICKER_UPDATE_GOLDEN=1 swift test` rewrites the generated texts.
@Suite("declarations against help, docs/options.md, completions")
struct DeclarationsTests {
  static var updating: Bool { ProcessInfo.processInfo.environment["TICKER_UPDATE_GOLDEN"] == "1" }
  static let root = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent()

  @Test("docs/options.md's option table is the one generated from the declarations")
  func optionsTable() throws {
    try Self.checkGenerated(
      "docs/options.md", begin: "<!-- settings-table:begin", end: "<!-- settings-table:end -->",
      HelpWriter.markdownTable())
  }

  @Test("docs/exit-codes.md's table is the one generated from ExitCode.table")
  func exitCodeTable() throws {
    try Self.checkGenerated(
      "docs/exit-codes.md", begin: "<!-- exit-codes:begin", end: "<!-- exit-codes:end -->",
      ExitCode.markdownTable())
  }

  /// The text between the line holding `begin` and the line `end` in `file` is `generated`
  /// (with TICKER_UPDATE_GOLDEN=1 it is made so).
  static func checkGenerated(_ file: String, begin: String, end: String, _ generated: String) throws {
    let url = root.appendingPathComponent(file)
    let text = try String(contentsOf: url, encoding: .utf8)
    let start = try #require(text.range(of: begin))
    let startLine = try #require(text[start.upperBound...].range(of: "\n"))
    let stop = try #require(text.range(of: end))
    let block = String(text[startLine.upperBound..<stop.lowerBound])
    if updating {
      let updated = text[..<startLine.upperBound] + generated + text[stop.lowerBound...]
      try String(updated).write(to: url, atomically: true, encoding: .utf8)
    } else {
      #expect(block == generated, "\(file): regenerate with TICKER_UPDATE_GOLDEN=1 swift test")
    }
  }

  @Test("--help shows every listed setting with its flags, value, default and variable")
  func helpShowsEverySetting() async throws {
    let help = try await TickerProcess.run(["--help"]).stdout
    // Help wraps its columns: compare with runs of white space made one space.
    let flat = Self.flat(help)
    for setting in Settings.all where setting.listed {
      for flag in setting.flags { #expect(help.contains(flag), "\(flag) missing from --help") }
      if let value = setting.valueName, let flag = setting.flag {
        let choices = setting.choices.joined(separator: "|")
        #expect(help.contains("\(flag) \(value)") || help.contains("\(flag) \(choices)"), "\(flag) \(value)")
      }
      if !setting.defaultText.isEmpty {
        #expect(flat.contains("(default \(Self.flat(setting.defaultText)))"), "default of \(setting.name)")
      }
      if let variable = setting.environment, variable.hasPrefix("TICKER_") {
        let suffix = String(variable.dropFirst("TICKER_".count))
        #expect(flat.contains(" \(suffix),") || flat.contains(" \(suffix) "), "\(variable)")
      }
    }
    for group in SettingGroup.allCases { #expect(help.contains("\n\(group.rawValue)\n")) }
  }

  static func flat(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  @Test("every example in --help is accepted by the parser")
  func helpExamplesParse() async throws {
    let help = try await TickerProcess.run(["--help"]).stdout
    let section = try #require(help.components(separatedBy: "\nEXAMPLES\n").last)
    let examples = section.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.contains("ticker ") && !$0.contains("completions") }
    #expect(examples.count >= 5)
    for example in examples {
      // The ticker's own words: after any VAR=value, before a pipe, &&, a redirection or the
      // comment (two spaces).
      var command = example[example.range(of: "ticker ")!.lowerBound...]
      for separator in [" | ", " && ", " > ", "   "] {
        if let cut = command.range(of: separator) { command = command[..<cut.lowerBound] }
      }
      let words = Self.shellWords(String(command)).dropFirst()
      #expect(throws: Never.self, "\(example)") { try ArgumentParser.parse(Array(words)) }
    }
  }

  @Test("completion scripts: golden, generated from the declarations", arguments: ["bash", "zsh", "fish"])
  func completionGolden(shell: String) async throws {
    let result = try await TickerProcess.run(["completions", shell])
    #expect(result.status == 0)
    for flag in Settings.flags {
      // fish names flags without their dashes: `-l format`, `-s v`.
      let spelled =
        shell != "fish" ? flag : flag.hasPrefix("--") ? "-l \(flag.dropFirst(2))" : "-s \(flag.dropFirst())"
      #expect(result.stdout.contains(spelled), "\(shell): \(flag)")
    }
    let path = Fixture.directory.appendingPathComponent("golden/completion.\(shell)")
    if Self.updating {
      try result.stdout.write(to: path, atomically: true, encoding: .utf8)
    } else {
      #expect(result.stdout == (try Fixture.text("golden/completion.\(shell)")))
    }
  }

  /// What bash offers after `words`, with the completion script sourced as a user would.
  static func bashComplete(_ words: [String], in directory: URL? = nil) async throws -> [String] {
    let script = """
      source <("$TICKER" completions bash)
      \(directory.map { "cd '\($0.path)'" } ?? "")
      COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
      COMP_CWORD=\(words.count - 1)
      _ticker
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try await TickerProcess.run(
      ["--norc", "--noprofile", "-c", script],
      environment: TickerProcess.cleanEnvironment(["TICKER": TickerProcess.executable.path]),
      program: URL(fileURLWithPath: "/bin/bash"))
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdoutLines.filter { !$0.isEmpty }
  }

  @Test("bash: the script, sourced in a real bash, completes flags, values and files")
  func bashCompletes() async throws {
    #expect(try await Self.bashComplete(["ticker", "--form"]) == ["--format"])
    #expect(
      try await Self.bashComplete(["ticker", "--format", ""]) == ["text", "json", "csv", "tsv", "price"])
    #expect(try await Self.bashComplete(["ticker", "--provider", "bin"]) == ["binance"])
    #expect(try await Self.bashComplete(["ticker", "--provider", "o"]) == ["okx"])
    #expect(try await Self.bashComplete(["ticker", "--timestamps", "r"]) == ["received"])
    #expect(try await Self.bashComplete(["ticker", "completions", ""]) == ["bash", "zsh", "fish"])
    #expect(try await Self.bashComplete(["ticker", "se"]) == ["serve"])
    #expect(try await Self.bashComplete(["ticker", "serve", "--serve-t"]) == ["--serve-token"])
    #expect(try await Self.bashComplete(["ticker", "--symbol", ""]) == [])  // symbols are free text
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ticker-completion-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = FileManager.default.createFile(
      atPath: directory.appendingPathComponent("ca-test.pem").path, contents: Data())
    #expect(try await Self.bashComplete(["ticker", "--cacert", "ca-"], in: directory) == ["ca-test.pem"])
    #expect(try await Self.bashComplete(["ticker", "--config", "ca-"], in: directory) == ["ca-test.pem"])
  }

  @Test(
    "fish: the script, loaded by fish, completes flags and values",
    .requires(.fish))
  func fishCompletes() async throws {
    func complete(_ line: String) async throws -> [String] {
      let result = try await TickerProcess.run(
        ["--no-config", "-c", "source (\"$TICKER\" completions fish | psub); complete -C '\(line)'"],
        environment: TickerProcess.cleanEnvironment(["TICKER": TickerProcess.executable.path]),
        program: URL(fileURLWithPath: "/usr/bin/fish"))
      #expect(result.status == 0, "\(result.stderr)")
      return result.stdoutLines.map { String($0.prefix { $0 != "\t" }) }
    }
    #expect(try await complete("ticker --form") == ["--format"])
    #expect(Set(try await complete("ticker --format ")) == ["text", "json", "csv", "tsv", "price"])
    #expect(Set(try await complete("ticker --engine ")) == ["auto", "urlsession", "native"])
  }

  @Test("zsh: the script is valid zsh", .requires(.zsh))
  func zshParses() async throws {
    let result = try await TickerProcess.run(
      ["-f", "-n", "-c", "source <(\"$TICKER\" completions zsh)"],
      environment: TickerProcess.cleanEnvironment(["TICKER": TickerProcess.executable.path]),
      program: URL(fileURLWithPath: "/usr/bin/zsh"))
    #expect(result.status == 0, "\(result.stderr)")
    let script = try await TickerProcess.run(["completions", "zsh"]).stdout
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-\(getpid()).zsh")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let parsed = try await TickerProcess.run(
      ["-f", "-n", file.path], program: URL(fileURLWithPath: "/usr/bin/zsh"))
    #expect(parsed.status == 0, "\(parsed.stderr)")
  }

  /// Splits a command line as a shell would for these examples (single and double quotes).
  static func shellWords(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var inWord = false
    for c in text {
      if let q = quote {
        if c == q { quote = nil } else { current.append(c) }
      } else if c == "'" || c == "\"" {
        quote = c
        inWord = true
      } else if c == " " {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(c)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return words
  }
}

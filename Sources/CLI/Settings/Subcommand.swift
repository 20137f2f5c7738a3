import Venues

/// The words that may come first on the command line and change what the ticker does, each
/// declared once: the parser, `--help`'s usage lines and the completion scripts read them.
public struct Subcommand: Sendable, Equatable {
  public enum Name: String, Sendable, CaseIterable {
    case completions, serve
  }

  public let name: Name
  /// What follows the word in `--help`'s usage line.
  public let usage: String
  /// What it does, for the completion scripts.
  public let help: String
  /// Its one operand and the values it takes (`completions SHELL`); nil: it takes the settings
  /// instead, as a plain run does.
  public let operand: (name: String, choices: [String])?

  public static func == (a: Subcommand, b: Subcommand) -> Bool { a.name == b.name }

  /// In the order help and the completion scripts list them.
  public static let all: [Subcommand] = [
    Subcommand(
      name: .completions, usage: Shell.allCases.map(\.rawValue).joined(separator: "|"),
      help: "print a completion script", operand: ("SHELL", Shell.allCases.map(\.rawValue))),
    Subcommand(
      name: .serve, usage: "[--provider NAME] [--port PORT] [--bind ADDRESS] [--serve-token TOKEN] [options]",
      help: "serve a \(ProviderCatalog.defaultProvider.displayName)-compatible WebSocket API", operand: nil),
  ]

  /// `--help`'s usage lines for the subcommands: serving first, then the shell scripts.
  public static var usageLines: [String] {
    all.reversed().map { "ticker \($0.name.rawValue) \($0.usage)" }
  }

  public static func named(_ word: String) -> Subcommand? { all.first { $0.name.rawValue == word } }
}

/// The shells `ticker completions` writes scripts for.
public enum Shell: String, Sendable, CaseIterable {
  case bash, zsh, fish
}

import CLI
import Outputs
import TickerSupport
import Transport
import Venues

/// The command line → the command that runs it: parsing, what needs no settings (help, version,
/// completions), the settings and the checks every run shares (`RunContext`), then one command.
enum Ticker {
  static func run(arguments: [String], environment: [String: String]) async -> ExitCode {
    let stdout = FileDescriptorWriter(fd: 1)
    let early = Diagnostics(
      secrets: ProviderCatalog.tokenVariables.compactMap { environment[$0] }, verbose: false,
      format: LogFormat.early(arguments: arguments, environment: environment))
    let command: ParsedCommand
    do {
      command = try ArgumentParser.parse(arguments)
    } catch {
      early.error("\(error)", event: .usageError)
      return .usage
    }
    if let text = informational(command) {
      try? stdout.write(text)
      return .ok
    }
    let context: RunContext
    switch RunContext.prepare(command, arguments: arguments, environment: environment, early: early) {
    case .success(let prepared): context = prepared
    case .failure(let stop): return stop.code
    }
    switch (command.serve, context.config.replay) {
    case (true, let path?): return await ServeCommand.replay(path, context)
    case (true, nil): return await ServeCommand.live(context)
    case (false, let path?): return await ReplayCommand.run(path, context)
    case (false, nil): return await LiveCommand.run(context)
    }
  }

  /// What `--help`, `--version` and `completions SHELL` print; nil for a run.
  static func informational(_ command: ParsedCommand) -> String? {
    if command.help { return HelpText.usage }
    if command.version {
      // Linked in, OpenSSL's security updates need a new build: say which one is inside.
      let openSSL = OpenSSLLinkage.linkedVersion.map { "\($0), linked in\n" } ?? ""
      return HelpText.version + "\n" + openSSL
    }
    return command.completions.map(CompletionScript.script(for:))
  }
}

/// Why a run stops before it starts (said on stderr already), as its exit code.
struct Stop: Error {
  var code: ExitCode
}

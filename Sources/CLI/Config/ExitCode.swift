import Venues

/// The ticker's exit codes (sysexits-style), each declared once with its words: `--help`'s
/// two-column list and docs/exit-codes.md's table are generated from `ExitCode.table` (a golden test
/// holds the file to it).
public enum ExitCode: Int32, Sendable, CaseIterable {
  case ok = 0
  case untilNotMet = 1
  case usage = 64
  case refused = 65
  case noInput = 66
  case unavailable = 69
  case software = 70
  case cannotListen = 71
  case cannotCreate = 73
  case ioError = 74
  case retriesExhausted = 75
  case protocolError = 76
  case authRefused = 77
  case config = 78
  case interrupted = 130
  case terminated = 143

  /// One row of the table: the codes it is about, `--help`'s few words, and docs/exit-codes.md's meaning.
  public struct Entry: Sendable {
    public var codes: [ExitCode]
    public var brief: String
    public var meaning: String
  }

  public static let table: [Entry] = [
    Entry(
      codes: [.ok], brief: "feed ended (count reached, reader gone, server closed with 1000, --until met)",
      meaning:
        "the feed ended normally: `--count` reached, stdout's reader went away (`ticker \\| head -3`), "
        + "the server closed the connection with 1000, or an `--until` condition held"),
    Entry(
      codes: [.untilNotMet], brief: "--until was given and the feed ended before any of its conditions held",
      meaning: "`--until` was given and the feed ended normally (as for 0) before any of its conditions held"),
    Entry(
      codes: [.usage], brief: "usage error or missing token",
      meaning: "usage error: bad option or value (an unusable `--publish` URL, or credentials in it on the "
        + "command line, included), a symbol the venue cannot have, or no token (`\(ProviderCatalog.tokenVariable)`) where the "
        + "provider needs one; `ticker serve --bind` beyond loopback without `--serve-token`, or `--metrics` beyond loopback "
        + "without `--metrics-token`"),
    Entry(
      codes: [.refused], brief: "venue refused, or a bad recording",
      meaning: "the venue refused the subscription itself (a request it calls an error, a refused first "
        + "subscription, or every followed symbol refused one by one): reconnecting would only repeat it; "
        + "or the `--replay` file is empty, not a "
        + "recording, or has a corrupt or cut-off line (what came before it was printed)"),
    Entry(
      codes: [.noInput], brief: "config/CA/recording file unusable",
      meaning: "the config file named by `--config`/`$TICKER_CONFIG` does not exist or cannot be read, or it "
        + "or the `--cacert`, `--nats-nkey` or `--nats-creds` file is not a readable regular file; or the "
        + "`--replay` file does not exist, cannot be read or is not a regular file"),
    Entry(
      codes: [.unavailable], brief: "the service cannot be used from here",
      meaning: "the service cannot be used from here: `--engine urlsession` where URLSession cannot do "
        + "WebSockets, or `wss://` in a build without TLS (transient network failures are retried instead; "
        + "see `--max-retries` and exit 75)"),
    Entry(codes: [.software], brief: "internal error", meaning: "internal error (a bug)"),
    Entry(
      codes: [.cannotListen], brief: "serve or --metrics: cannot listen (port in use)",
      meaning: "`ticker serve`, or `--metrics`, cannot listen on its address and port: the port is in use "
        + "(another `ticker serve`?), the address is not one of this machine's, or a port below 1024 needs "
        + "privileges"),
    Entry(
      codes: [.cannotCreate], brief: "cannot create the --record file",
      meaning:
        "the `--record` file cannot be created or appended to: a directory, no permission, a file that "
        + "is not a recording, a recording of another venue, or one whose last line is cut off"),
    Entry(
      codes: [.ioError], brief: "stdout or --record write error",
      meaning: "writing to stdout or to the `--record` file failed (other than stdout's reader going away), "
        + "or stdout was closed at start"),
    Entry(
      codes: [.retriesExhausted], brief: "reconnects exhausted",
      meaning: "the connection kept failing and `--max-retries` reconnects were used up"),
    Entry(
      codes: [.protocolError], brief: "protocol or TLS error",
      meaning:
        "protocol error: the server broke RFC 6455, refused the upgrade with an unexpected HTTP status, "
        + "or its TLS certificate failed verification"),
    Entry(
      codes: [.authRefused], brief: "token refused (401/403)",
      meaning: "the server refused the token (HTTP 401/403 at the handshake); not retried"),
    Entry(
      codes: [.config], brief: "invalid config",
      meaning:
        "invalid configuration file or value, or a `--nats-nkey`/`--nats-creds` file that holds no usable key"
    ),
    Entry(
      codes: [.interrupted, .terminated], brief: "SIGINT/SIGTERM",
      meaning: "stopped by SIGINT (Ctrl-C) or SIGTERM, after unsubscribing and closing with 1000 (`ticker "
        + "serve` first closes its clients with 1001)"),
  ]

  /// `--help`'s EXIT CODES lines: short entries two to a line, a long one alone.
  public static func helpLines(width: Int = 37) -> [String] {
    let cells = table.map { entry in
      entry.codes.map { String($0.rawValue) }.joined(separator: "/") + " " + entry.brief
    }
    var lines: [String] = []
    var index = 0
    while index < cells.count {
      let cell = cells[index]
      if cell.count < width, index + 1 < cells.count {
        lines.append(cell + String(repeating: " ", count: width - cell.count) + cells[index + 1])
        index += 2
      } else {
        lines.append(cell)
        index += 1
      }
    }
    return lines
  }

  /// docs/exit-codes.md's table (between its `exit-codes` markers).
  public static func markdownTable() -> String {
    var rows = ["| code | meaning |", "|---|---|"]
    for entry in table {
      rows.append("| \(entry.codes.map { String($0.rawValue) }.joined(separator: ", ")) | \(entry.meaning) |")
    }
    return rows.joined(separator: "\n") + "\n"
  }
}

/// The ticker's exit codes (sysexits-style), in one place. README "Exit codes" lists the same.
enum ExitCode: Int32, Sendable {
  /// The feed ended normally: `--count` reached, stdout's reader went away, the server closed
  /// the connection with 1000, or an `--until` condition held.
  case ok = 0
  /// `--until` was given and the run ended normally (as for 0) before any of its conditions
  /// held: like `grep`, 1 means "not found", so `ticker --until … && notify` never fires falsely.
  case untilNotMet = 1
  /// Bad command line, or no API token where the provider needs one.
  case usage = 64
  /// The venue refused the subscription itself (an invalid request, or every followed symbol
  /// refused one by one): reconnecting would only repeat it. Also (EX_DATAERR) a `--replay` file
  /// that is empty, not a recording, or has a corrupt or cut-off line.
  case refused = 65
  /// The `--config` file (or `$TICKER_CONFIG`) does not exist or cannot be read.
  case noInput = 66
  /// The service cannot be used from here (`--help` and the README say exactly this): `--engine
  /// urlsession` where URLSession cannot do WebSockets or what was asked of it, or `wss://` in a
  /// build without TLS. Network failures are retried instead (75 when the retries run out).
  case unavailable = 69
  /// A bug: something that should never happen did.
  case software = 70
  /// `ticker serve` could not listen on its address and port: the port is in use (another
  /// `ticker serve`?), the address is not one of this machine's, or a port below 1024 needs
  /// privileges (EX_OSERR).
  case cannotListen = 71
  /// The `--record` file cannot be created or appended to (EX_CANTCREAT): a directory, no
  /// permission, not a recording, or a recording of another venue.
  case cannotCreate = 73
  /// Writing to stdout, or to the `--record` file, failed (other than stdout's reader going away).
  case ioError = 74
  /// The connection kept failing and `--max-retries` reconnects were used up (EX_TEMPFAIL:
  /// trying again later may work).
  case retriesExhausted = 75
  /// The server broke the WebSocket protocol, refused the upgrade with an unexpected HTTP
  /// status, or its TLS certificate failed verification.
  case protocolError = 76
  /// The server refused the API token (HTTP 401/403 at the handshake).
  case authRefused = 77
  /// The configuration file is invalid (unknown key, wrong type, bad value).
  case config = 78
  /// Stopped by SIGINT (Ctrl-C), after unsubscribing and closing cleanly: 128 + 2.
  case interrupted = 130
  /// Stopped by SIGTERM, after unsubscribing and closing cleanly: 128 + 15.
  case terminated = 143
}

import CLI
import FeedRuntime
import Gateway
import Outputs
import Recording
import Transport
import Venues
import WebSocketClient

/// The one place that turns how a run ended into the line the user reads and the exit code
/// scripts see. The words come from `FailureText`; every line passes through `Diagnostics`,
/// which removes secrets and escapes control characters.
enum ErrorReport {
  static func exitCode(for error: WebSocketError) -> ExitCode {
    switch error {
    case .handshake(.unexpectedStatus(let status, _, _)):
      switch status {
      case 401, 403: .authRefused
      case 429, 500...599: .unavailable
      default: .protocolError
      }
    case .invalidURL: .usage
    case .handshake, .protocolViolation: .protocolError
    case .transport(let transport): exitCode(for: transport)
    case .abnormalClosure, .unsupported, .notConnected: .unavailable
    }
  }

  static func exitCode(for error: TransportError) -> ExitCode {
    switch error {
    case .tls, .certificateVerification: .protocolError
    case .resolve, .connect, .timeout, .syscall, .connectionClosed, .cancelled, .tlsUnavailable,
      .tlsLibraryMissing, .peer:
      .unavailable
    }
  }

  /// The last word: what ended the run, on stderr, and the exit code.
  /// - Parameter awaitingUntil: `--until` was given; a normal end before it held is then exit 1.
  static func report(
    _ outcome: FeedOutcome, provider: any Provider, awaitingUntil: Bool = false, _ diagnostics: Diagnostics
  ) -> ExitCode {
    let code = finalCode(outcome, provider: provider, diagnostics)
    guard awaitingUntil, code == .ok, outcome != .stopped(.untilMet) else { return code }
    if outcome != .stopped(.readerGone) {
      diagnostics.note("the run ended before any --until condition held", event: .untilNotMet)
    }
    return .untilNotMet
  }

  private static func finalCode(_ outcome: FeedOutcome, provider: any Provider, _ diagnostics: Diagnostics)
    -> ExitCode
  {
    switch outcome {
    case .stopped(.untilMet):
      return .ok
    case .stopped(.countReached):
      return .ok
    case .stopped(.readerGone):
      return .ok  // `ticker | head -3`: quietly done.
    case .stopped(.writeFailed(let errno)):
      diagnostics.error("cannot write to stdout: \(FailureText.systemError(errno))", event: .writeFailed)
      return .ioError
    case .stopped(.signal(let sig)):
      return sig == 2 ? .interrupted : .terminated
    case .serverClosed(let status):
      let text = status.map { "\($0)" } ?? "no status"
      if status?.code == .normalClosure {
        diagnostics.note("the server closed the connection (\(text))", event: .serverClosed)
        return .ok
      }
      diagnostics.error("the server closed the connection (\(text))", event: .serverClosed)
      return .unavailable
    case .failed(let error):
      diagnostics.error(FailureText.describe(error, provider: provider), event: .connectFailed)
      return exitCode(for: error)
    case .refused(let error):
      let name = error.name.map { "\($0): " } ?? ""
      diagnostics.error(
        "\(provider.displayName) refused the subscription: \(name)\(error.message)",
        event: .subscriptionRefused)
      return .refused
    case .retriesExhausted(let attempts, let last):
      let tries =
        attempts == 0
        ? "no reconnect allowed (--max-retries 0)" : "gave up after \(attempts) reconnect attempt(s)"
      diagnostics.error(
        "\(tries): \(FailureText.describe(last, provider: provider))", event: .retriesExhausted)
      return .retriesExhausted
    }
  }
}

import NATS
import Synchronization
import TickerSupport
import WebSocketClient
import WebSocketWire

/// A NATS server as the source of a `Feed` (`--source`): `open` connects to `url` (TCP, TLS if
/// asked, `INFO`/`CONNECT`) and returns a `NATSSourceConnection`. The session above it
/// reconnects with backoff, as it does for a venue.
public struct NATSSource: MessageSource {
  public let url: NATSURL
  /// The client name and version sent in `CONNECT` (shown by the server's monitoring).
  public let clientName: String
  public let version: String
  /// `--nats-nkey` or `--nats-creds`: the key to sign in with.
  public let key: NATSKeyAuth?
  /// What its connections remember between them.
  let memory = NATSSourceMemory()

  public init(url: NATSURL, clientName: String = "ticker", version: String, key: NATSKeyAuth? = nil) {
    self.url = url
    self.key = key
    self.clientName = clientName
    self.version = version
  }

  public func open(options: ConnectOptions) async throws(WebSocketError) -> any MessageConnection {
    let (url, clientName, version, key) = (self.url, self.clientName, self.version, self.key)
    // Connecting blocks (TCP, then the handshake): on a thread of its own, never the pool's.
    let opened: Result<NATSConnection, NATSLinkError> = await withCheckedContinuation { continuation in
      DedicatedThread.start {
        do throws(NATSLinkError) {
          continuation.resume(
            returning: .success(
              try NATSConnection.open(
                url: url, name: clientName, version: version, timeout: options.connectTimeout,
                caCertificateFile: options.caCertificateFile, key: key,
                maximumLineLength: NATSServerParser.defaultMaximumLineLength,
                maximumPayload: options.maximumMessageSize)))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    switch opened {
    case .success(let connection): return NATSSourceConnection(connection, memory: memory)
    case .failure(let error): throw Self.webSocketError(error)
    }
  }

  /// How the session should take a NATS failure: a server that refused the credentials or wants
  /// TLS refuses again; anything else may go better on a new connection.
  static func webSocketError(_ error: NATSLinkError) -> WebSocketError {
    switch error {
    case .transport(let transport): .transport(transport)
    case .refused(let refusal) where refusal.isAuthorization:
      .transport(.peer("NATS: \(error)", retry: false))
    case .tlsNotOffered: .transport(.peer("NATS: \(error)", retry: false))
    // Its own words already name the NATS server.
    case .protocolViolation: .transport(.peer("\(error)", retry: true))
    default: .transport(.peer("NATS: \(error)", retry: true))
    }
  }
}

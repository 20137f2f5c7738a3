import Dispatch
import Synchronization
import TickerSupport
import Transport

/// One connection to a NATS server, made on a thread that may block (`open`): TCP, the server's
/// INFO, our CONNECT and a PING whose PONG says the server accepted us. Afterwards one reader
/// thread (`startReader`) turns the server's bytes into messages; writes come from the
/// publisher's thread.
public final class NATSConnection: Sendable {
  /// TCP, or TLS over it; safe for one reader and one writer.
  public let stream: any ByteStream
  public let info: NATSServerInfo
  /// The handshake's parser (with what it read past the PONG), until the reader thread takes it.
  private let handshakeParser: Mutex<NATSServerParser?>

  private init(stream: any ByteStream, info: NATSServerInfo, parser: NATSServerParser) {
    self.stream = stream
    self.info = info
    self.handshakeParser = Mutex(parser)
  }

  /// Connects and completes the handshake within `timeout` seconds: TCP, the server's INFO, then
  /// TLS when `tls://` asks for it or the server requires it (NATS starts TLS after its plain
  /// INFO; the certificate is checked against the system's CAs and `caCertificateFile`, and
  /// must name the URL's host).
  public static func open(
    url: NATSURL, name: String, version: String, timeout: Double, caCertificateFile: String? = nil,
    key: NATSKeyAuth? = nil, maximumLineLength: Int, maximumPayload: Int? = nil
  ) throws(NATSLinkError) -> NATSConnection {
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
    let tcp: TCPStream
    do {
      tcp = try TCPStream.connect(host: url.host, port: url.port, timeout: timeout)
    } catch {
      throw .transport(error)
    }
    var stream: any ByteStream = tcp
    var parser = NATSServerParser(maximumLineLength: maximumLineLength, maximumPayload: maximumPayload)
    do throws(NATSLinkError) {
      guard case .info(let info) = try next(&parser, stream, deadline: deadline, timeout: timeout) else {
        throw .protocolViolation(.badInfo("the server's first line is not INFO"))
      }
      let secure = url.isSecure || info.tlsRequired
      if secure {
        stream = try startTLS(
          over: tcp, url: url, info: info, bytesAfterInfo: parser.bufferedCount,
          caCertificateFile: caCertificateFile, deadline: deadline, timeout: timeout)
      }
      let fields = try keyFields(key, info: info)
      try write(
        NATSCommands.connect(
          name: name, version: version, credentials: url.credentials, tls: secure, key: fields)
          + NATSCommands.ping,
        to: stream, timeout: timeout)
      return try awaitAcceptance(&parser, stream, info: info, deadline: deadline, timeout: timeout)
    } catch {
      stream.close()
      throw error
    }
  }

  /// TLS over `tcp`, begun after the server's plain INFO (which must offer it, with nothing
  /// after it yet), within what is left of `deadline`.
  private static func startTLS(
    over tcp: TCPStream, url: NATSURL, info: NATSServerInfo, bytesAfterInfo: Int, caCertificateFile: String?,
    deadline: ContinuousClock.Instant, timeout: Double
  ) throws(NATSLinkError) -> TLSStream {
    guard info.tlsRequired || info.tlsAvailable else { throw .tlsNotOffered }
    guard bytesAfterInfo == 0 else {
      throw .protocolViolation(.badInfo("the server sent more before TLS began"))
    }
    let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
    let left = max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
    do {
      return try TLSStream(
        over: tcp, serverName: url.host, caCertificateFile: caCertificateFile, timeout: min(timeout, left))
    } catch {
      throw .transport(error)
    }
  }

  /// CONNECT's signature of the server's nonce, when there is a key to sign in with and a nonce.
  private static func keyFields(_ key: NATSKeyAuth?, info: NATSServerInfo) throws(NATSLinkError)
    -> NATSCommands.KeyFields?
  {
    guard let key, let nonce = info.nonce else { return nil }
    do {
      return try key.connectFields(nonce: nonce)
    } catch {
      throw .transport(error)
    }
  }

  /// Reads the server's answers to CONNECT up to the PONG that says it accepted us (answering its
  /// PINGs, taking a newer INFO): the connection.
  private static func awaitAcceptance(
    _ parser: inout NATSServerParser, _ stream: any ByteStream, info: NATSServerInfo,
    deadline: ContinuousClock.Instant, timeout: Double
  ) throws(NATSLinkError) -> NATSConnection {
    var info = info
    while true {
      switch try next(&parser, stream, deadline: deadline, timeout: timeout) {
      case .pong: return NATSConnection(stream: stream, info: info, parser: parser)
      case .ok: continue
      case .info(let update): info = update
      case .ping: try write(NATSCommands.pong, to: stream, timeout: timeout)
      case .error(let error): throw .refused(error)
      case .message: throw .protocolViolation(.unexpectedMessage("MSG"))
      }
    }
  }

  /// The next message during the handshake, reading as needed until `deadline`.
  private static func next(
    _ parser: inout NATSServerParser, _ stream: any ByteStream, deadline: ContinuousClock.Instant,
    timeout: Double
  ) throws(NATSLinkError) -> NATSServerMessage {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      do throws(NATSProtocolError) {
        if let message = try parser.next() { return message }
      } catch {
        throw .protocolViolation(error)
      }
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw .handshakeTimeout(seconds: timeout) }
      let (s, atto) = left.components
      let count: Int
      do {
        count = try read(stream, into: &chunk, timeout: Double(s) + Double(atto) / 1e18)
      } catch {
        if case .timeout = error { throw .handshakeTimeout(seconds: timeout) }
        throw .transport(error)
      }
      if count == 0 { throw .closedByServer }
      parser.append(chunk[0..<count])
    }
  }

  /// One `read` into `chunk`. (A typed-throws closure passed to `withUnsafeMutableBytes` crashes
  /// the 6.3.1 compiler, so the error is carried out of the closure by hand.)
  private static func read(_ stream: any ByteStream, into chunk: inout [UInt8], timeout: Double?)
    throws(TransportError) -> Int
  {
    var failure: TransportError?
    let count = chunk.withUnsafeMutableBytes { buffer -> Int in
      do throws(TransportError) {
        return try stream.read(into: buffer, timeout: timeout)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure { throw failure }
    return count
  }

  private static func write(_ bytes: [UInt8], to stream: any ByteStream, timeout: Double)
    throws(NATSLinkError)
  {
    do {
      try stream.write(bytes, timeout: timeout)
    } catch {
      if case .timeout = error { throw .writeStalled(seconds: timeout) }
      throw .transport(error)
    }
  }

  /// Writes `bytes`; a write that makes no progress for `timeout` seconds fails.
  public func write(_ bytes: [UInt8], timeout: Double) throws(NATSLinkError) {
    try Self.write(bytes, to: stream, timeout: timeout)
  }

  /// A request answered before the reader starts (on the opening thread): `PUB` to `subject`
  /// with an inbox of its own to answer on; the answer's payload, or nil when none came within
  /// `timeout` seconds (a JetStream request to a server without JetStream). PINGs meanwhile are
  /// answered.
  public func request(_ subject: String, _ body: [UInt8], timeout: Double) throws(NATSLinkError) -> [UInt8]? {
    guard var parser = handshakeParser.withLock({ $0.take() }) else {
      preconditionFailure("NATSConnection.request after startReader")
    }
    defer { handshakeParser.withLock { $0 = parser } }
    let inbox = "_INBOX." + NATSConnection.randomToken()
    try write(
      NATSCommands.subscribe(inbox, sid: "request")
        + NATSCommands.request(subject: subject, replyTo: inbox, payload: body),
      timeout: timeout)
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
    while true {
      let message: NATSServerMessage
      do throws(NATSLinkError) {
        message = try Self.next(&parser, stream, deadline: deadline, timeout: timeout)
      } catch {
        if case .handshakeTimeout = error {
          try write(NATSCommands.unsubscribe(sid: "request"), timeout: timeout)
          return nil
        }
        throw error
      }
      switch message {
      case .message(let delivery) where delivery.sid == "request":
        try write(NATSCommands.unsubscribe(sid: "request"), timeout: timeout)
        return delivery.payload
      case .ping: try write(NATSCommands.pong, timeout: timeout)
      case .error(let error) where !error.keepsConnection: throw .refused(error)
      default: continue
      }
    }
  }

  /// 16 random hex digits, for inbox subjects.
  public static func randomToken() -> String {
    var random = SystemRandomNumberGenerator()
    return Hex.string(random.next(), digits: 16)
  }

  /// Reads the server's messages on a thread of its own until the connection ends: each message
  /// goes to `message`, then the reason it ended to `end` (once). Call once.
  public func startReader(
    message: @escaping @Sendable (NATSServerMessage) -> Void, end: @escaping @Sendable (NATSLinkError) -> Void
  ) {
    // A serial queue of its own: Dispatch gives it a thread that may block in `read`.
    DedicatedThread.start { [self] in
      guard var parser = handshakeParser.withLock({ $0.take() }) else {
        preconditionFailure("NATSConnection.startReader called twice")
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count: Int
        do throws(TransportError) {
          count = try Self.read(stream, into: &chunk, timeout: nil)
        } catch {
          end(.transport(error))
          return
        }
        if count == 0 {
          end(.closedByServer)
          return
        }
        parser.append(chunk[0..<count])
        do throws(NATSProtocolError) {
          while let next = try parser.next() { message(next) }
        } catch {
          end(.protocolViolation(error))
          return
        }
      }
    }
  }

  /// Wakes the reader (it ends with `.transport(.cancelled)`) and refuses further writes.
  public func shutdown() { stream.shutdown() }

  public func close() { stream.close() }
}

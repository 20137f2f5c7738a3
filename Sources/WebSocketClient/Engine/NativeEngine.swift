import Dispatch
import Synchronization
import TickerSupport
import Transport
import WebSocketWire

/// The RFC 6455 engine over a `ByteStream` (TCP, or TLS over TCP) with no Foundation networking.
public struct NativeEngine: WebSocketEngine {
  /// Opens the byte stream for a URL (TCP connect, plus TLS for `wss`). Blocking; it is called on
  /// a dispatch queue, never on the Swift concurrency pool.
  public typealias TransportFactory =
    @Sendable (WebSocketURL, ConnectOptions) throws(TransportError) -> any ByteStream
  /// Makes the generator for one connection's `Sec-WebSocket-Key` and masking keys.
  public typealias RandomFactory = @Sendable () -> any RandomNumberGenerator

  public let name = "native"
  let transport: TransportFactory
  let random: RandomFactory

  public init(
    transport: @escaping TransportFactory,
    random: @escaping RandomFactory = { SystemRandomNumberGenerator() }
  ) {
    self.transport = transport
    self.random = random
  }

  /// The engine over real sockets: TCP, and TLS for `wss://` (see `TransportConnector`), with
  /// keys and masks from the system's secure random generator.
  public init() {
    self.init(transport: { url, options throws(TransportError) in
      try TransportConnector.connect(
        host: url.host, port: url.port, secure: url.isSecure, caCertificateFile: options.caCertificateFile,
        timeout: options.connectTimeout)
    })
  }

  public func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    let attempt = ConnectAttempt()
    let transport = self.transport
    let random = self.random
    let result: Result<NativeConnection, WebSocketError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        // A thread of its own: the connect and the handshake block (see `DedicatedThread`).
        DedicatedThread.start {
          continuation.resume(
            returning: Self.open(
              url, options: options, transport: transport, random: random, attempt: attempt))
        }
      }
    } onCancel: {
      attempt.cancel()
    }
    return try result.get()
  }

  /// The blocking part of `connect`: transport, upgrade request, response.
  static func open(
    _ url: WebSocketURL, options: ConnectOptions, transport: TransportFactory, random: RandomFactory,
    attempt: ConnectAttempt
  ) -> Result<NativeConnection, WebSocketError> {
    let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, options.connectTimeout) * 1000))
    let stream: any ByteStream
    do {
      stream = try transport(url, options)
    } catch {
      return .failure(.transport(error))
    }
    guard attempt.register(stream) else {
      stream.close()
      return .failure(.transport(.cancelled))
    }
    var generator = random()
    let key = Handshake.makeKey(using: &generator)
    switch upgrade(stream, url: url, key: key, options: options, deadline: deadline) {
    case .failure(let error):
      stream.close()
      return .failure(attempt.isCancelled ? .transport(.cancelled) : error)
    case .success(let (leftover, deflate)):
      let connection = NativeConnection(
        stream: stream, role: .client, random: generator, maximumMessageSize: options.maximumMessageSize,
        writeTimeout: options.writeTimeout, deflate: deflate)
      connection.start(initialBytes: leftover)
      return .success(connection)
    }
  }

  /// Sends the upgrade request and reads the response; returns the bytes after the head and the
  /// agreed compression.
  static func upgrade(
    _ stream: any ByteStream, url: WebSocketURL, key: String, options: ConnectOptions,
    deadline: ContinuousClock.Instant
  ) -> Result<([UInt8], PerMessageDeflate?), WebSocketError> {
    func remaining() -> Double? {
      let left = deadline - ContinuousClock.now
      let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
      return seconds > 0 ? seconds : nil
    }
    let timedOut = WebSocketError.transport(.timeout("the WebSocket handshake did not finish in time"))
    let request = Handshake.request(
      for: url, key: key, headers: options.headers, offerDeflate: options.compression)
    guard let writeTimeout = remaining() else { return .failure(timedOut) }
    do {
      try stream.write(request, timeout: writeTimeout)
    } catch {
      return .failure(.transport(error))
    }
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { chunk.deallocate() }
    var received: [UInt8] = []
    while true {
      guard let readTimeout = remaining() else { return .failure(timedOut) }
      let count: Int
      do {
        count = try stream.read(into: chunk, timeout: readTimeout)
      } catch .timeout {
        return .failure(timedOut)
      } catch {
        return .failure(.transport(error))
      }
      if count == 0 { return .failure(.transport(.connectionClosed)) }
      received.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
      do throws(HandshakeError) {
        if let parsed = try Handshake.parseResponse(received, key: key, offeredDeflate: options.compression) {
          return .success((Array(received[parsed.consumed...]), parsed.deflate))
        }
      } catch {
        return .failure(.handshake(error))
      }
    }
  }
}

/// Lets a cancelled `connect` shut down the stream its blocking half is using.
final class ConnectAttempt: Sendable {
  private let state = Mutex<(stream: (any ByteStream)?, cancelled: Bool)>((nil, false))

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Records the stream; false when the attempt was already cancelled.
  func register(_ stream: any ByteStream) -> Bool {
    state.withLock { s in
      guard !s.cancelled else { return false }
      s.stream = stream
      return true
    }
  }

  func cancel() {
    let stream = state.withLock { s in
      s.cancelled = true
      return s.stream
    }
    stream?.shutdown()
  }
}

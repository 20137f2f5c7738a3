import Foundation
import Synchronization
import WebSocketClient
import WebSocketWire

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The engine that wraps Foundation's `URLSessionWebSocketTask`.
///
/// On Apple platforms this is the system WebSocket stack. On Linux, FoundationNetworking's
/// WebSocket support depends on how the toolchain's libcurl binding was built; on the Swift 6.3.1
/// toolchain it fails every task with `NSURLErrorDomain -1002` ("WebSockets not supported by
/// libcurl"). `URLSessionEngine.support()` finds that out locally, without a connection.
public struct URLSessionEngine: WebSocketEngine {
  public let name = "urlsession"

  public init() {}

  /// Whether URLSession can do WebSockets here, found out locally.
  ///
  /// Opens a task for `ws://127.0.0.1:9/` (loopback discard port) and waits for its first
  /// `receive` to fail. A build without WebSocket support fails with -1002 ("WebSockets not
  /// supported by libcurl") before creating any socket (checked with strace on Linux); a build
  /// with support fails with "cannot connect" because nothing listens on port 9 of loopback.
  /// Either way nothing leaves the machine. The wait is bounded in case something does listen.
  public static func support() async -> EngineSupport {
    let session = URLSession(configuration: .ephemeral)
    defer { session.invalidateAndCancel() }
    let task = session.webSocketTask(with: URL(string: "ws://127.0.0.1:9/")!)
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Error?, Never>) in
      let once = ResumeOnce(continuation)
      task.receive { result in
        if case .failure(let error) = result { once.resume(error) } else { once.resume(nil) }
      }
      task.resume()
      DispatchQueue.global().asyncAfter(deadline: .now() + 5) { once.resume(nil) }
    }
    task.cancel()
    if let error = outcome as NSError?, error.code == NSURLErrorUnsupportedURL {
      return .unsupported(
        "FoundationNetworking says \"\(error.localizedDescription)\" (\(error.domain) \(error.code))")
    }
    return .supported
  }

  public func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  {
    if options.caCertificateFile != nil {
      throw .unsupported("--cacert is only supported by the native engine")
    }
    return try await Self.open(
      "\(url.isSecure ? "wss" : "ws")://\(url.hostHeader)\(url.target)", options: options, delivery: .channel)
  }

  /// Opens a connection to `urlString` (already a valid `ws://` or `wss://` URL).
  static func open(
    _ urlString: String, options: ConnectOptions, delivery: URLSessionConnection.Delivery
  ) async throws(WebSocketError) -> URLSessionConnection {
    guard let foundationURL = URL(string: urlString)
    else { throw .invalidURL(InvalidWebSocketURL("the URL is not valid for URLSession")) }
    var request = URLRequest(url: foundationURL, timeoutInterval: options.connectTimeout)
    for header in options.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
    #if canImport(FoundationNetworking)
      // corelibs (6.3.1) sends `Connection: keep-alive`, which stops libcurl from sending
      // `Connection: Upgrade`: every server answers 426. Fixed upstream after 6.3.1
      // (swift-corelibs-foundation #5484); the header set here gets past it meanwhile.
      if request.value(forHTTPHeaderField: "Connection") == nil {
        request.setValue("Upgrade", forHTTPHeaderField: "Connection")
      }
    #endif
    let connection = URLSessionConnection(
      request: request, maximumMessageSize: options.maximumMessageSize, delivery: delivery)
    try await connection.open(timeout: options.connectTimeout)
    return connection
  }
}

/// Whether an engine can run on this platform, and why not.
public enum EngineSupport: Sendable, Equatable {
  case supported
  case unsupported(String)
}

/// Resumes a continuation exactly once, whichever callback comes first.
final class ResumeOnce<T: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<T, Never>?>
  init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Mutex(continuation) }
  func resume(_ value: T) {
    continuation.withLock { continuation in
      defer { continuation = nil }
      return continuation
    }?.resume(returning: value)
  }
}

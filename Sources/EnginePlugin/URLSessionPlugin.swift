import TickerPluginABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The URLSession engine plugin (libTickerURLSession.so), loaded with dlopen from the ticker's
/// own directory only when the URLSession engine is wanted. Never unloaded.
public final class URLSessionPlugin: Sendable {
  public static let fileName = "libTickerURLSession.so"

  public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No plugin file there.
    case missing(path: String)
    /// dlopen refused it; dlerror's text.
    case cannotLoad(path: String, message: String)
    /// It lacks one of the plugin's functions.
    case notAPlugin(path: String, missingSymbol: String)
    /// Built for another version of the ABI.
    case wrongVersion(path: String, found: Int32, expected: Int32)
    /// This ticker is a static executable (see `SystemFiles.isStaticExecutable`).
    case staticExecutable

    /// Why a static ticker has no URLSession engine, for messages and `--verbose`.
    public static let staticExecutableReason =
      "this ticker is a static executable, which cannot load the URLSession plugin (it brings its "
      + "own Swift runtime and C library); `--engine urlsession` runs its companion, the dynamically "
      + "linked build that Scripts/install.sh puts in <prefix>/libexec/ticker/"

    public var description: String {
      switch self {
      case .missing(let path): "the URLSession engine plugin is missing (no \(path))"
      case .cannotLoad(let path, let message): "cannot load the URLSession engine plugin \(path): \(message)"
      case .notAPlugin(let path, let symbol): "\(path) is not a ticker URLSession plugin (no \(symbol))"
      case .wrongVersion(let path, let found, let expected):
        "\(path) has plugin ABI version \(found), this ticker needs \(expected)"
      case .staticExecutable: Self.staticExecutableReason
      }
    }
  }

  public let path: String
  let probeFunction: ticker_urlsession_probe_fn
  let connectFunction: ticker_urlsession_connect_fn
  let sendFunction: ticker_urlsession_send_fn
  let pingFunction: ticker_urlsession_ping_fn
  let closeFunction: ticker_urlsession_close_fn
  let releaseFunction: ticker_urlsession_release_fn

  /// Whether this process is a static executable (built with `-static-executable`; see
  /// `ticker_is_static_executable`). Such a process must not load the plugin: it brings its own
  /// Swift runtime and, through it, a second C library.
  public static var isStaticExecutable: Bool { ticker_is_static_executable() != 0 }

  /// Loads `<directory>/libTickerURLSession.so`.
  public static func load(directory: String) throws(LoadError) -> URLSessionPlugin {
    try load(path: directory + "/" + fileName)
  }

  /// Loads the plugin next to this executable.
  public static func loadNextToExecutable() throws(LoadError) -> URLSessionPlugin {
    guard let directory = SystemFiles.executableDirectory() else {
      throw .cannotLoad(path: fileName, message: "cannot tell this executable's directory")
    }
    return try load(directory: directory)
  }

  /// `staticExecutable`: whether this process is one (injected by tests).
  public static func load(
    path: String, staticExecutable: Bool = URLSessionPlugin.isStaticExecutable
  ) throws(LoadError) -> URLSessionPlugin {
    guard !staticExecutable else { throw .staticExecutable }
    guard SystemFiles.exists(path) else { throw .missing(path: path) }
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      throw .cannotLoad(path: path, message: dlerror().map { String(cString: $0) } ?? "unknown error")
    }
    func symbol<F>(_ name: String, as type: F.Type) throws(LoadError) -> F {
      guard let raw = dlsym(handle, name) else { throw .notAPlugin(path: path, missingSymbol: name) }
      return unsafeBitCast(raw, to: type)
    }
    let version = try symbol("ticker_urlsession_abi_version", as: ticker_urlsession_abi_version_fn.self)()
    guard version == TICKER_PLUGIN_ABI_VERSION else {
      throw .wrongVersion(path: path, found: version, expected: TICKER_PLUGIN_ABI_VERSION)
    }
    return URLSessionPlugin(
      path: path,
      probe: try symbol("ticker_urlsession_probe", as: ticker_urlsession_probe_fn.self),
      connect: try symbol("ticker_urlsession_connect", as: ticker_urlsession_connect_fn.self),
      send: try symbol("ticker_urlsession_send", as: ticker_urlsession_send_fn.self),
      ping: try symbol("ticker_urlsession_ping", as: ticker_urlsession_ping_fn.self),
      close: try symbol("ticker_urlsession_close", as: ticker_urlsession_close_fn.self),
      release: try symbol("ticker_urlsession_release", as: ticker_urlsession_release_fn.self))
  }

  /// The plugin's functions (tests pass stand-ins).
  init(
    path: String, probe: ticker_urlsession_probe_fn, connect: ticker_urlsession_connect_fn,
    send: ticker_urlsession_send_fn, ping: ticker_urlsession_ping_fn, close: ticker_urlsession_close_fn,
    release: ticker_urlsession_release_fn
  ) {
    self.path = path
    self.probeFunction = probe
    self.connectFunction = connect
    self.sendFunction = send
    self.pingFunction = ping
    self.closeFunction = close
    self.releaseFunction = release
  }

  /// Runs URLSession's own local probe inside the plugin (see `URLSessionEngine.support()`):
  /// nil when WebSockets work, else the reason.
  public func unsupportedReason() async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
      let box = Unmanaged.passRetained(Completion(continuation)).toOpaque()
      probeFunction(box) { op, supported, reason in
        let completion = Unmanaged<Completion<String?>>.fromOpaque(op!).takeRetainedValue()
        completion.resume(supported != 0 ? nil : reason.map { String(cString: $0) } ?? "unsupported")
      }
    }
  }
}

/// A continuation carried through a C `void *` and resumed once by a C callback.
final class Completion<T: Sendable>: Sendable {
  private let continuation: CheckedContinuation<T, Never>
  init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
  func resume(_ value: T) { continuation.resume(returning: value) }
}

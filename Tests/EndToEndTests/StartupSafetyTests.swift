import Emulators
import Foundation
import TestSupport
import Testing

/// What the ticker does with awkward surroundings before and while it connects: a FIFO where a
/// config or CA file should be, a password in a URL, stdout closed, a name server that never
/// answers. Each ends with a clear message and a documented exit code, never a hang or a leak.
@Suite("ticker start-up safety")
struct StartupSafetyTests {
  static let token = "sk-startup-SECRET-3"
  static let environment = TickerProcess.cleanEnvironment(["FINNHUB_TOKEN": token])

  static func temporaryPath(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-startup-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
  }

  static func fifo() throws -> String {
    let path = try temporaryPath("fifo.json")
    guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.EEXIST) }
    return path
  }

  // MARK: Files that are not regular files

  @Test("a FIFO as the config file is refused at once (exit 66), from --config and TICKER_CONFIG")
  func configFIFO() async throws {
    let path = try Self.fifo()
    let flag = try await TickerProcess.run(["--demo", "--config", path], environment: Self.environment)
    #expect(flag.status == 66, "\(flag.stderr)")
    #expect(flag.stderr == "ticker: error: \(path): cannot read: not a regular file (a FIFO)\n")
    var environment = Self.environment
    environment["TICKER_CONFIG"] = path
    let variable = try await TickerProcess.run(["--demo"], environment: environment)
    #expect(variable.status == 66, "\(variable.stderr)")
    #expect(variable.stderr.contains("not a regular file (a FIFO)"))
  }

  @Test("a FIFO or a directory as the --cacert file is refused before connecting (exit 66)")
  func caFileNotRegular() async throws {
    let fifo = try Self.fifo()
    let result = try await TickerProcess.run(["--demo", "--cacert", fifo], environment: Self.environment)
    #expect(result.status == 66, "\(result.stderr)")
    #expect(result.stderr == "ticker: error: cannot use the CA file \(fifo): not a regular file (a FIFO)\n")
    let directory = FileManager.default.temporaryDirectory.path
    let dir = try await TickerProcess.run(["--demo", "--cacert", directory], environment: Self.environment)
    #expect(dir.status == 66, "\(dir.stderr)")
    #expect(dir.stderr.contains("not a regular file (a directory)"))
  }

  // MARK: Passwords in URLs

  @Test("user:password@ in a URL is refused with the reason, and the password is never shown")
  func userInfoInURL() async throws {
    let url = "ws://trader:Hunter2-PASSWORD@127.0.0.1:9/feed?token=abc"
    let flag = try await TickerProcess.run(["--url", url], environment: Self.environment)
    #expect(flag.status == 64, "\(flag.stderr)")
    #expect(
      flag.stderr
        == "ticker: error: invalid value 'ws://***@127.0.0.1:9/feed?token=***' for --url: must be a ws:// or "
        + "wss:// URL: user:password@ is not allowed (a WebSocket URL has no user information, RFC 6455 §3; "
        + "and ps would show the password)\n")

    var environment = Self.environment
    environment["TICKER_URL"] = url
    let variable = try await TickerProcess.run([], environment: environment)
    #expect(variable.status == 78, "\(variable.stderr)")
    #expect(variable.stderr.contains("user:password@ is not allowed"))

    let config = try Self.temporaryPath("config.json")
    try #"{"url": "\#(url)"}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let file = try await TickerProcess.run(["--config", config], environment: Self.environment)
    #expect(file.status == 78, "\(file.stderr)")
    #expect(file.stderr.contains("user:password@ is not allowed"))
    for result in [flag, variable, file] {
      #expect(!result.stderr.contains("Hunter2"))
      #expect(!result.stderr.contains(Self.token))
    }
  }

  // MARK: Standard streams

  @Test("started with stdout closed: exit 74 at once, before connecting")
  func stdoutClosed() async throws {
    let result = try await TickerProcess.run(
      ["-c", #"exec "$0" --demo --count 1 >&-"#, TickerProcess.executable.path],
      environment: Self.environment, program: URL(fileURLWithPath: "/bin/sh"))
    #expect(result.status == 74, "\(result.stderr)")
    #expect(result.stderr == "ticker: error: stdout is closed: there is nowhere to print prices\n")
  }

  @Test("started with stdin and stderr closed: the prices still go to stdout")
  func stdinAndStderrClosed() async throws {
    let result = try await TickerProcess.run(
      ["-c", #"exec "$0" --demo --count 2 <&- 2>&-"#, TickerProcess.executable.path],
      environment: Self.environment, program: URL(fileURLWithPath: "/bin/sh"))
    #expect(result.status == 0)
    #expect(result.stdoutLines.count == 2)
    #expect(result.stdoutLines.map { $0.split(separator: "\t").count } == [3, 3])
    #expect(
      result.stdoutLines.map { $0.split(separator: "\t")[1] } == ["BINANCE:BTCUSDT", "BINANCE:BTCUSDT"])
  }

  // MARK: Name resolution

  @Test(
    "a name server that never answers: the connect timeout covers the lookup",
    .enabled(
      if: PrivateResolver.available, "needs `unshare -m` (root) to give the ticker its own resolv.conf"))
  func resolverThatNeverAnswers() async throws {
    let resolver = try PrivateResolver()
    defer { resolver.close() }
    let result = try await TickerProcess.run(
      resolver.arguments(
        TickerProcess.executable.path,
        ["--url", "ws://feed.example:9/", "--connect-timeout", "1", "--max-retries", "0"]),
      environment: Self.environment, program: URL(fileURLWithPath: "/usr/bin/unshare"))
    #expect(result.status == 75, "\(result.stderr)")
    #expect(
      result.stderr
        == "ticker: error: no reconnect allowed (--max-retries 0): timed out: resolving feed.example "
        + "(no answer from the name servers in time)\n")
  }
}

/// A name server that never answers: a UDP socket on port 53 of a loopback address of its own
/// that reads nothing, and a resolv.conf naming only it (30 s per try, so the lookup outlives any
/// connect timeout in the tests). The ticker sees that resolv.conf through a bind mount in a
/// private mount namespace (`unshare -m`), so the machine's own stays untouched.
final class PrivateResolver: Sendable {
  static var available: Bool {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
      return false
    }
    let probe = try? Spawned(
      "/usr/bin/unshare", ["-m", "--propagation", "private", "true"], standardError: .null)
    return probe?.waitForExit(within: 10) == .exited(0)
  }

  let socket: Int32
  let resolvConf: String

  init() throws {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    // 127.83.x.y: a loopback address no other test uses.
    let host = "127.83.\(Int.random(in: 1...254)).\(Int.random(in: 1...254))"
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(53).bigEndian
    inet_pton(AF_INET, host, &address.sin_addr)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      Glibc.close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    socket = fd
    resolvConf = try StartupSafetyTests.temporaryPath("resolv.conf")
    try "nameserver \(host)\noptions timeout:30 attempts:1\n".write(
      toFile: resolvConf, atomically: true, encoding: .utf8)
  }

  /// `unshare` arguments that run `program` with `arguments` under the private resolv.conf.
  func arguments(_ program: String, _ arguments: [String]) -> [String] {
    [
      "-m", "--propagation", "private", "/bin/sh", "-c",
      #"mount --bind "$0" /etc/resolv.conf && exec "$@""#, resolvConf, program,
    ] + arguments
  }

  func close() { Glibc.close(socket) }
}

import Foundation
import Synchronization
import TestSupport

@testable import WebSocketClient
@testable import WebSocketWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Tests/Support/raw_peer.py`: a raw RFC 6455 server (Python standard library only, sharing no
/// code with ours) that sends exact, possibly malformed bytes and reports what the client sent
/// back. One process serves every conformance case by request path; it is started once per test
/// process (`RawPeer.shared()`) and exits when the test process does (its stdin closes).
final class RawPeer: Sendable {
  /// One frame the client sent, already unmasked by the peer.
  struct ClientFrame: Decodable, Sendable, Equatable {
    var opcode: Int
    var fin: Bool
    var rsv: Int
    var masked: Bool
    /// The masking key, 8 hex digits.
    var key: String
    /// The 7-bit length field (126 and 127 announce 16- and 64-bit lengths).
    var len7: Int
    var length: Int
    var sha1: String
    /// Absent for payloads over 1 KiB.
    var payloadHex: String?

    var payload: [UInt8]? { payloadHex.map(RawPeer.bytes(fromHex:)) }
  }

  /// What the peer saw on one connection.
  struct Report: Decodable, Sendable {
    var `case`: String
    var run: Int
    var frames: [ClientFrame]
    var closeCode: Int?
    var closeReason: String
    var closePayloadHex: String?
    var tcpClosed: Bool
    var errors: [String]
    /// The request's `Sec-WebSocket-Extensions` (our permessage-deflate offer), if any.
    var offered: String?
    /// For cases that wait for the client's close mid-way: whether it came before the rest.
    var closedBeforeRest: Bool?

    /// The frames other than the client's close frame.
    var framesBeforeClose: [ClientFrame] { Array(frames.prefix { $0.opcode != 8 }) }
  }

  private struct Waiters {
    var reports: [String: Report] = [:]
    var waiting: [String: CheckedContinuation<Report?, Never>] = [:]
  }

  private static let started: Result<RawPeer, ChildProcess.Failure> = {
    do {
      return .success(try RawPeer())
    } catch let failure as ChildProcess.Failure {
      return .failure(failure)
    } catch {
      return .failure(ChildProcess.Failure(description: "raw_peer.py did not start: \(error)"))
    }
  }()

  /// The one peer process of this test run, started on first use.
  static func shared() async throws -> RawPeer {
    try await offPool { try started.get() }
  }

  let port: Int
  /// Kept so the child's stdin (a pipe) stays open for as long as the test process lives.
  private let child: Spawned
  private let waiters = Mutex(Waiters())
  private let nextRun = Atomic(0)

  private init() throws {
    try TestTools.require([.pythonWebsockets])
    let script = TestTools.supportScript("raw_peer.py")
    child = try Spawned(
      TestTools.python, [script], standardInput: .pipe, standardOutput: .pipe, standardError: .inherit)
    guard let reader = child.standardOutput, let first = Self.readLine(from: reader),
      first.hasPrefix("PORT "),
      let port = Int(first.dropFirst(5))
    else {
      child.terminate()
      throw ChildProcess.Failure(description: "raw_peer.py did not print its port")
    }
    self.port = port
    // Not `self`-capturing in a way that matters: the shared peer lives as long as the process.
    Thread.detachNewThread { [self] in
      while let line = Self.readLine(from: reader) { self.deliver(line) }
    }
  }

  /// A fresh URL for `caseID`; the run number tells its report apart from other runs'.
  func url(for caseID: String) throws -> (url: WebSocketURL, key: String) {
    let run = nextRun.add(1, ordering: .relaxed).newValue
    let url = try WebSocketURL(parsing: "ws://127.0.0.1:\(port)/case/\(caseID)?run=\(run)")
    return (url, "\(caseID)#\(run)")
  }

  /// The report for a connection made to `url(for:)`, once the peer printed it; nil when none
  /// arrived within `seconds` (a bound that only guards against a hang).
  func report(_ key: String, within seconds: Double = 30) async -> Report? {
    await withCheckedContinuation { continuation in
      let ready: Report?? = waiters.withLock { w in
        if let report = w.reports.removeValue(forKey: key) { return .some(report) }
        w.waiting[key] = continuation
        return .none
      }
      if let ready {
        continuation.resume(returning: ready)
        return
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        self.waiters.withLock { $0.waiting.removeValue(forKey: key) }?.resume(returning: nil)
      }
    }
  }

  private func deliver(_ line: String) {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    guard let report = try? decoder.decode(Report.self, from: Data(line.utf8)) else {
      FileHandle.standardError.write(Data("raw_peer.py: \(line)\n".utf8))
      return
    }
    let key = "\(report.case)#\(report.run)"
    let waiter: CheckedContinuation<Report?, Never>? = waiters.withLock { w in
      if let waiter = w.waiting.removeValue(forKey: key) { return waiter }
      w.reports[key] = report
      return nil
    }
    waiter?.resume(returning: report)
  }

  /// One line (without its newline) from a pipe; nil at EOF.
  private static func readLine(from handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(handle.fileDescriptor, &byte, 1) == 1 {
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    return nil
  }

  static func bytes(fromHex hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count - 1, by: 2).map { i in
      UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) ?? 0
    }
  }
}

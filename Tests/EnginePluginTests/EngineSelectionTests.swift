import Synchronization
import Testing
import WebSocketClient

@testable import EnginePlugin
@testable import WebSocketWire

/// How `auto` decides whether URLSession's WebSocket path may be used: the three layers' pure
/// reports, the verdict (the first layer that refuses decides), the whole-JSON check that notices
/// cut messages, and the engine that falls back to native after a defect.
@Suite("Engine selection by layers")
struct EngineSelectionTests {
  static let layer1 = LayerReport(.compileTime, allows: true, "imports curl_ws_recv")
  static let layer2 = LayerReport(.runtimeLibcurl, allows: true, "libcurl 8.14.1 lists ws, wss")

  @Test("no curl_ws imports: layer 1 decides")
  func noImports() {
    let report = WebSocketShimCheck.report(
      for: .noWebSocketAPI("/opt/swift/libFoundationNetworking.so"), library: "libFoundationNetworking.so")
    #expect(!report.allows)
    guard case .refused(let by, let after) = URLSessionVerdict.decide([report]) else {
      Issue.record("not refused")
      return
    }
    #expect(by.layer == .compileTime)
    #expect(after.isEmpty)
    #expect(URLSessionVerdict.decide([report]).reason.hasPrefix("decided by layer 1, compile-time imports:"))
  }

  @Test("imports without runtime support: layer 2 decides")
  func noRuntimeSupport() {
    let info = LibcurlCheck.Info(
      version: "7.88.1", protocols: ["dict", "file", "ftp", "http", "https"], path: "/lib/libcurl.so.4")
    let report = LibcurlCheck.report(for: info)
    #expect(!report.allows)
    #expect(report.detail.contains("lists no ws/wss protocol"))
    guard case .refused(let by, let after) = URLSessionVerdict.decide([Self.layer1, report]) else {
      Issue.record("not refused")
      return
    }
    #expect(by.layer == .runtimeLibcurl)
    #expect(after == [Self.layer1])
  }

  @Test("runtime support with the known bugs: layer 3 decides")
  func knownBugs() {
    let info = LibcurlCheck.Info(
      version: "8.14.1", protocols: ["http", "ws", "wss"], path: "/x/libcurl.so.4")
    #expect(
      LibcurlCheck.report(for: info)
        == Self.layer2.with(detail: "libcurl 8.14.1 (/x/libcurl.so.4) lists ws, wss"))
    let layer3 = CorelibsBugs.report(version: "6.3.1")
    #expect(!layer3.allows)
    guard case .refused(let by, _) = URLSessionVerdict.decide([layer3, Self.layer2, Self.layer1]) else {
      Issue.record("not refused")
      return
    }
    #expect(by.layer == .corelibsBugs)
    #expect(CorelibsBugs.knownCorrect.isEmpty)
    #expect(!CorelibsBugs.report().allows)
  }

  @Test("every layer allowing it: usable (a corelibs version known to be correct)")
  func allAllow() {
    let layer3 = LayerReport(.corelibsBugs, allows: true, "corelibs 9.9 is known to be correct")
    #expect(
      URLSessionVerdict.decide([Self.layer1, Self.layer2, layer3])
        == .usable([Self.layer1, Self.layer2, layer3]))
  }

  @Test("an unreadable FoundationNetworking leaves the decision to the later layers")
  func unknownShim() {
    #expect(WebSocketShimCheck.report(for: .unknown("no file"), library: "x").allows)
  }

  @Test(
    "whole JSON texts pass; pieces of one do not",
    arguments: [
      ("{\"type\":\"ping\"}", true), ("[1,2,{\"a\":[]}]", true), (" {\"s\":\"a}\\\"]\"} \n", true),
      ("{\"data\":[{\"p\":1", false), ("5,\"s\":\"AAPL\"}]}", false), ("{}{}", false), ("", false),
      ("\"text\"", false), ("{\"s\":\"unterminated}", false), ("}{", false),
    ])
  func wholeJSON(_ text: String, _ whole: Bool) {
    #expect(WholeJSONCheck.isWhole(text.utf8) == whole)
  }

  @Test("a Finnhub message cut at 4092 bytes is not whole, both halves")
  func cutFinnhubMessage() {
    let trades = (1...80).map {
      "{\"p\":100.\($0),\"s\":\"AAPL\",\"t\":\(1_700_000_000_000 + $0),\"v\":0.001}"
    }
    let message = Array(
      "{\"data\":[\(trades.joined(separator: ",")),{\"c\":[\"1\"]}],\"type\":\"trade\"}".utf8)
    #expect(WholeJSONCheck.isWhole(message))
    #expect(!WholeJSONCheck.isWhole(message[..<4092]))
    #expect(!WholeJSONCheck.isWhole(message[4092...]))
  }

  @Test("a cut text message ends the stream with abnormalClosure and reports the defect once")
  func receiverStopsAtTheDefect() async throws {
    let reported = Reported()
    let defects = URLSessionDefects { reported.add($0) }
    let receiver = PluginReceiver(defects: defects)
    receiver.receive(.text("{\"type\":\"ping\"}"))
    receiver.receive(.binary([1, 2, 3]))
    receiver.receive(.text("{\"data\":[{\"p\":1"))
    receiver.receive(.text("{\"type\":\"ping\"}"))
    var got: [WebSocketMessage] = []
    var failure: (any Error)?
    do {
      for try await message in receiver.messages { got.append(message) }
    } catch { failure = error }
    #expect(got == [.text("{\"type\":\"ping\"}"), .binary([1, 2, 3])])
    #expect(failure as? WebSocketError == .abnormalClosure)
    #expect(reported.all.count == 1)
    #expect(reported.all.first?.contains("text message of 15 bytes that is not a whole JSON text") == true)
    defects.report("again")
    #expect(reported.all.count == 1)
    #expect(defects.first == reported.all.first)
  }

  @Test("the fallback engine uses the primary until a defect, the native one after")
  func fallbackRouting() async {
    let defects = URLSessionDefects()
    let engine = FallbackEngine(
      primary: Refusing(label: "primary"), fallback: Refusing(label: "fallback"), defects: defects)
    let url = try! WebSocketURL(parsing: "ws://127.0.0.1:9/")
    await #expect(throws: WebSocketError.unsupported("primary")) {
      _ = try await engine.connect(to: url, options: ConnectOptions())
    }
    defects.report("cut message")
    await #expect(throws: WebSocketError.unsupported("fallback")) {
      _ = try await engine.connect(to: url, options: ConnectOptions())
    }
    #expect(engine.name == "urlsession")
  }
}

/// An engine that only says which one it is.
private struct Refusing: WebSocketEngine {
  var label: String
  var name: String { label }
  func connect(to url: WebSocketURL, options: ConnectOptions) async throws(WebSocketError)
    -> any MessageConnection
  { throw .unsupported(label) }
}

private final class Reported: Sendable {
  private let texts = Mutex<[String]>([])
  func add(_ text: String) { texts.withLock { $0.append(text) } }
  var all: [String] { texts.withLock { $0 } }
}

extension LayerReport {
  fileprivate func with(detail: String) -> LayerReport { LayerReport(layer, allows: allows, detail) }
}

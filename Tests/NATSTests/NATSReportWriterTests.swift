import FeedRuntime
import Outputs
import Testing
import Venues

@testable import NATS
@testable import NATSBridge

@Suite("NATS report lines")
struct NATSReportWriterTests {
  static let url = NATSURL(host: "127.0.0.1", port: 4222, credentials: .token("tok3n"))
  static let refused = NATSLinkError.transport(.connect(host: "127.0.0.1", port: 4222, errno: 111))

  @Test("an unreachable server is warned about once a minute, saying how many were held back")
  func rateLimited() {
    let writer = NATSReportWriter(diagnostics: Diagnostics(secrets: [], verbose: false), url: Self.url)
    let start = ContinuousClock.now
    func failed(_ attempt: Int, at seconds: Int) -> [String] {
      writer.lines(
        for: .connectFailed(
          Self.refused, attempt: attempt, retryIn: .milliseconds(500), buffered: 3, dropped: 0),
        at: start.advanced(by: .seconds(seconds))
      ).map(\.text)
    }
    let first = failed(1, at: 0)
    #expect(first.count == 1)
    #expect(
      first.first?.hasPrefix(
        "cannot publish to nats://***@127.0.0.1:4222: cannot connect to 127.0.0.1 port 4222") == true)
    #expect(
      first.first?.contains("retrying in 0.5 s (attempt 1; prices keep printing; 3 held, 0 dropped so far)")
        == true)
    for attempt in 2...6 { #expect(failed(attempt, at: attempt * 5).isEmpty) }
    let later = failed(7, at: 61)
    #expect(later.first?.hasSuffix("(5 similar warnings not shown)") == true, "\(later)")
  }

  @Test("the recovery is always said, with what was dropped; the first connection only with --verbose")
  func recovery() {
    let writer = NATSReportWriter(diagnostics: Diagnostics(secrets: [], verbose: false), url: Self.url)
    let info = NATSServerInfo(version: "2.9.10")
    let first = writer.lines(for: .connected(info, reconnected: false, droppedSinceLastConnection: 0))
    #expect(first.map(\.level) == [.info])
    _ = writer.lines(for: .lost(.closedByServer, retryIn: .seconds(1)))
    let again = writer.lines(for: .connected(info, reconnected: true, droppedSinceLastConnection: 42))
    #expect(again.map(\.level) == [.note])
    #expect(
      again.first?.text
        == "publishing to nats://***@127.0.0.1:4222 again (NATS server 2.9.10); 42 prices were dropped meanwhile"
    )
  }

  @Test("the summary names every kind of loss")
  func summary() {
    let writer = NATSReportWriter(diagnostics: Diagnostics(secrets: [], verbose: false), url: Self.url)
    let lines = writer.lines(
      for: .finished(NATSPublisherSummary(published: 10, dropped: 3, lostInFlight: 2, unsent: 1)))
    #expect(
      lines.first?.text
        == "6 prices were not published to nats://***@127.0.0.1:4222: 3 dropped while NATS was unreachable or slow, "
        + "1 still waiting at exit, 2 lost with a failed connection")
    #expect(lines.last?.text == "published 10 prices to nats://***@127.0.0.1:4222")
  }
}

import TestSupport
import Testing
import TickerSupport

@testable import Monitoring

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The notifier against a real `AF_UNIX` datagram socket, as systemd listens: every message
/// arrives as the exact text sd_notify(3) defines, one datagram each.
@Suite("systemd notifications", .timeLimit(.minutes(1)))
struct SystemdNotifierTests {
  @Test("each message arrives exactly, one datagram each, at a socket in the file system")
  func messagesToPath() throws {
    let receiver = try NotifyReceiver.inTemporaryDirectory()
    let notifier = try #require(try SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": receiver.name])?.get())
    let messages: [(SystemdMessage, String)] = [
      (.ready(status: nil), "READY=1"),
      (.ready(status: "following 2 symbols"), "READY=1\nSTATUS=following 2 symbols"),
      (.status("Binance: reconnecting (attempt 2)"), "STATUS=Binance: reconnecting (attempt 2)"),
      (.watchdog, "WATCHDOG=1"),
      (.reloading(monotonicMicroseconds: 123_456_789), "RELOADING=1\nMONOTONIC_USEC=123456789"),
      (.stopping, "STOPPING=1"),
    ]
    for (message, _) in messages { try notifier.send(message) }
    for (_, text) in messages { #expect(receiver.receive() == text) }
  }

  #if os(Linux)
    @Test("an abstract socket (@name) receives them too")
    func messagesToAbstractSocket() throws {
      let receiver = try NotifyReceiver(
        abstract: "ticker-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
      let notifier = try #require(
        try SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": receiver.name])?.get())
      #expect(notifier.address == .abstract(String(receiver.name.dropFirst())))
      try notifier.send(.ready(status: "serving"))
      try notifier.send(.stopping)
      #expect(receiver.receive() == "READY=1\nSTATUS=serving")
      #expect(receiver.receive() == "STOPPING=1")
    }
  #endif

  @Test("RELOADING=1 is stamped with CLOCK_MONOTONIC in microseconds")
  func monotonicStamp() {
    var before = timespec()
    clock_gettime(CLOCK_MONOTONIC, &before)
    let stamp = SystemdNotifier.monotonicMicroseconds()
    var after = timespec()
    clock_gettime(CLOCK_MONOTONIC, &after)
    let low = UInt64(before.tv_sec) * 1_000_000 + UInt64(before.tv_nsec) / 1000
    let high = UInt64(after.tv_sec) * 1_000_000 + UInt64(after.tv_nsec) / 1000
    #expect((low...high).contains(stamp))
  }

  @Test("no NOTIFY_SOCKET, or an empty one: no notifier")
  func unset() {
    #expect(SystemdNotifier.fromEnvironment([:]) == nil)
    #expect(SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": ""]) == nil)
  }

  @Test(
    "an address that is not a Unix socket's is refused",
    arguments: ["relative/socket", "vsock:2:1234", "/run/a\u{0}b"])
  func unsupported(text: String) {
    let result = SystemdNotifier.fromEnvironment(["NOTIFY_SOCKET": text])
    guard case .failure(let error)? = result else {
      Issue.record("\(text) accepted")
      return
    }
    #expect(error == .unsupportedAddress(text))
  }

  @Test("an address longer than sun_path holds is refused, one that just fits is not")
  func tooLong() throws {
    let limit = SystemdNotifier.maximumAddressBytes
    let fits = "/" + String(repeating: "a", count: limit - 1)
    #expect(try SystemdNotifier.Address.parse(fits) == .path(fits))
    let long = fits + "a"
    #expect(throws: SystemdNotifyError.addressTooLong(long, limit: limit)) {
      try SystemdNotifier.Address.parse(long)
    }
  }

  @Test("a socket nobody listens on: sending fails at once, with the errno")
  func nobodyListens() throws {
    let notifier = try SystemdNotifier(address: .path("/nonexistent-ticker-test/notify"))
    #expect(throws: SystemdNotifyError.send(Errno(ENOENT))) { try notifier.send(.watchdog) }
  }

  @Test("a manager that never reads: sends fail with EAGAIN instead of blocking the caller")
  func neverBlocks() throws {
    let receiver = try NotifyReceiver.inTemporaryDirectory()
    let notifier = try SystemdNotifier(address: .path(receiver.name))
    var failure: SystemdNotifyError?
    for _ in 0..<100_000 {
      do { try notifier.send(.watchdog) } catch {
        failure = error
        break
      }
    }
    #expect(failure == .send(Errno(EAGAIN)))
  }

  @Test("a status is one line of at most 200 bytes, without control characters")
  func statusLine() {
    #expect(SystemdMessage.statusLine("a\nb\tc\r\u{1B}[31md\u{7F}e\u{85}f\u{0}") == "a b c [31mdef")
    let long = String(repeating: "é", count: 150)  // 300 bytes
    let cut = SystemdMessage.statusLine(long)
    #expect(cut.utf8.count == 200)
    #expect(cut == String(repeating: "é", count: 100))
    #expect(SystemdMessage.status("x\nREADY=1").text == "STATUS=x READY=1")
  }
}

import Testing

@testable import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `POSIX.retryingInterrupted`, the one EINTR loop, and `Errno`'s text.
@Suite struct POSIXTests {
  @Test("a result that is not negative comes back as it is, after as many EINTRs as come first")
  func retries() throws {
    var calls = 0
    let result = try POSIX.retryingInterrupted { () -> Int in
      calls += 1
      guard calls > 3 else {
        errno = EINTR
        return -1
      }
      return 0
    }
    #expect(result == 0)
    #expect(calls == 4)
  }

  @Test("any other failure is thrown as its errno, at once")
  func fails() {
    var calls = 0
    #expect(throws: Errno(EBADF)) {
      try POSIX.retryingInterrupted { () -> Int in
        calls += 1
        return POSIX.readDescriptor(-1, nil, 0)
      }
    }
    #expect(calls == 1)
  }

  @Test("the descriptor calls reach the C library")
  func calls() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { for fd in ends { POSIX.closeDescriptor(fd) } }
    let sent: [UInt8] = [1, 2, 3]
    #expect(sent.withUnsafeBytes { POSIX.writeDescriptor(ends[1], $0.baseAddress, $0.count) } == 3)
    var ready = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
    #expect(try POSIX.retryingInterrupted { POSIX.pollDescriptors(&ready, 1, 1000) } == 1)
    var received = [UInt8](repeating: 0, count: 8)
    #expect(received.withUnsafeMutableBytes { POSIX.readDescriptor(ends[0], $0.baseAddress, $0.count) } == 3)
    #expect(received.prefix(3) == [1, 2, 3])
    #expect(POSIX.openFile("/nonexistent-\(getpid())", O_RDONLY) == -1)
  }

  @Test("an errno's text is the system's")
  func text() {
    #expect(Errno(ENOENT).description == String(cString: strerror(ENOENT)))
    #expect(Errno.text(EPIPE) == String(cString: strerror(EPIPE)))
  }
}

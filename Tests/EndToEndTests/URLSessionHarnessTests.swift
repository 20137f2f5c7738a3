import TestSupport
import Testing

/// The harness the URLSession suites run on is the one they are written against.
@Suite("URLSession harness")
struct URLSessionHarnessTests {
  @Test("the harness runs libcurl 8.14.1", .requires(.urlSessionHarness))
  func version() {
    #expect(TestTools.urlSessionHarness?["LIBCURL_VERSION"] == "8.14.1")
  }
}

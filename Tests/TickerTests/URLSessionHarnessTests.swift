import Testing

/// Where CI requires the URLSession harness (`TICKER_REQUIRE_URLSESSION_HARNESS=1`, set by
/// `.ci/run`), a missing one fails here instead of quietly skipping the URLSession suites.
@Suite("URLSession harness")
struct URLSessionHarnessTests {
  @Test(
    "the harness is set up where it is required",
    .enabled(
      if: URLSessionHarness.isRequired,
      "TICKER_REQUIRE_URLSESSION_HARNESS is not 1: the URLSession suites may skip"))
  func present() {
    #expect(URLSessionHarness.isAvailable, URLSessionHarness.skipReason)
    #expect(URLSessionHarness.settings?["LIBCURL_VERSION"] == "8.14.1")
  }
}

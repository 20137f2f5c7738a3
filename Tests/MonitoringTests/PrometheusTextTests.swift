import Testing

@testable import Monitoring

@Suite struct PrometheusTextTests {
  @Test func familyAndSamples() {
    var text = PrometheusText()
    text.family(
      "ticker_venue_connected", .gauge, help: "Whether the venue's connection is open (1) or not (0).")
    text.sample("ticker_venue_connected", ["venue": "binance"], 1)
    text.sample("ticker_venue_connected", ["venue": "a\"b\\c\nd"], 0)
    #expect(
      text.text == """
        # HELP ticker_venue_connected Whether the venue's connection is open (1) or not (0).
        # TYPE ticker_venue_connected gauge
        ticker_venue_connected{venue="binance"} 1
        ticker_venue_connected{venue="a\\"b\\\\c\\nd"} 0

        """)
  }

  @Test func numbers() {
    #expect(PrometheusText.number(3) == "3")
    #expect(PrometheusText.number(0.25) == "0.25")
    #expect(PrometheusText.number(.infinity) == "+Inf")
    #expect(PrometheusText.number(-.infinity) == "-Inf")
    #expect(PrometheusText.number(.nan) == "NaN")
  }
}

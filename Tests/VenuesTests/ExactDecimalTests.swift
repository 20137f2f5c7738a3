import Testing

@testable import Venues

@Suite struct ExactDecimalTests {
  static func d(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

  @Test(arguments: [
    ("95372.09", "95000.5", "371.59"), ("95000.5", "95372.09", "-371.59"), ("0.1", "0.3", "-0.2"),
    ("103156000", "103160000.0", "-4000.0"), ("78860.00000000", "78860", "0.00000000"), ("1", "1", "0"),
  ])
  func subtraction(a: String, b: String, expected: String) {
    #expect((Self.d(a) - Self.d(b))?.description == expected)
  }

  @Test func comparisonIsExactWhereDoublesAreNot() {
    // 0.1 + 0.2 != 0.3 in binary; these decimals are what a server sends.
    #expect(Self.d("0.30000000000000001") > Self.d("0.3"))
    #expect(Double("0.30000000000000001")! == Double("0.3")!)
    #expect(Self.d("100000") == Self.d("100000.000"))
    #expect(Self.d("99999.99999999") < Self.d("100000"))
    #expect(Self.d("-1") < Self.d("0"))
  }

  @Test func productsAndPercent() {
    #expect((Self.d("2.5") * Self.d("95000.5"))?.description == "237501.25")
    #expect(Self.d("371.59").percent(of: Self.d("95000.5")).map { ($0 * 1000).rounded() / 1000 } == 0.391)
    #expect(Self.d("1").percent(of: Self.d("0")) == nil)
  }

  @Test func outOfRangeSaysSo() {
    let big = Self.d(String(repeating: "9", count: 37))
    #expect(ExactDecimal(String(repeating: "9", count: 38)) == nil)
    #expect((big * big) == nil)
    #expect(ExactDecimal("1e5") == nil && ExactDecimal("") == nil && ExactDecimal("-") == nil)
  }
}

import Testing

@testable import Venues

@Suite struct PriceTests {
  @Test(arguments: [
    ("95372.09", "95372.09"),
    ("95372.10", "95372.10"),
    ("95380", "95380"),
    ("0", "0"),
    ("-12.5", "-12.5"),
    ("1.16539E8", "116539000"),
    ("4.9E-4", "0.00049"),
    ("4.9e-4", "0.00049"),
    ("1.5E+1", "15"),
    ("1.50E1", "15.0"),
    ("0.5E1", "5"),
    ("0.05E1", "0.5"),
    ("123E-2", "1.23"),
    ("123E-3", "0.123"),
    ("-2.5E-1", "-0.25"),
    ("7E0", "7"),
    ("78860.00000000", "78860.00000000"),
  ])
  func normalisesText(input: String, expected: String) throws {
    let price = try #require(Price(input))
    #expect(price.text == expected)
    #expect(price.value == Double(expected))
  }

  @Test(arguments: [
    "", "-", "1.", ".5", "01", "1e", "1e+", "abc", "1.0.0", " 1", "1 ", "+1", "1E401", "0x10", "NaN",
  ])
  func rejectsInvalidText(input: String) {
    #expect(Price(input) == nil)
  }

  @Test func doubleValueIsExactlyRounded() throws {
    // A 32-bit Float would give 95372.09375; the Double is the nearest to 95372.09.
    #expect(try #require(Price("95372.09")).value == 95372.09)
    #expect(try #require(Price("95372.09")).text == "95372.09")
  }

  @Test func equalityComparesNumericValue() throws {
    #expect(Price("95380") == Price("95380.0"))
    #expect(Price("95380") == Price("9.538E4"))
    #expect(Price("0.00049") == Price("4.9E-4"))
    #expect(Price("0") == Price("-0.0"))
    #expect(Price("95372.09") != Price("95372.1"))
    // Round to the same Double, but are different decimals.
    #expect(Price("0.10000000000000000001") != Price("0.1"))
    #expect(Set([Price("1.0")!, Price("1")!, Price("1E0")!]).count == 1)
  }

  /// The canonical form behind equality, hashing and ordering is derived from the plain text on
  /// demand; it must be the one the digits-and-exponent reference (`DecimalText.canonical`) gives
  /// for the text the server sent, whatever its spelling.
  @Test func canonicalFormMatchesTheReference() {
    var generator = SplitMix64(seed: 7692)
    var texts = ["0", "-0", "0.0", "-0.000", "0.5E1", "100E-2", "1.50", "-1.50", "10", "1000.000", "0.00049"]
    for _ in 0..<5_000 {
      func digits(_ n: Int) -> String {
        String((0..<n).map { _ in Character(String(generator.next() % 10)) })
      }
      let int =
        generator.next() % 4 == 0 ? "0" : "\(1 + generator.next() % 9)" + digits(Int(generator.next() % 8))
      var text = (generator.next() % 3 == 0 ? "-" : "") + int
      if generator.next() % 2 == 0 { text += "." + digits(1 + Int(generator.next() % 9)) }
      if generator.next() % 4 == 0 { text += "E\(Int(generator.next() % 21) - 10)" }
      texts.append(text)
    }
    for text in texts {
      guard let price = Price(text), let reference = DecimalText(text) else {
        Issue.record("\(text) did not parse")
        continue
      }
      #expect(price.canonical == reference.canonical, "\(text)")
    }
  }

  @Test func orderingIsNumeric() throws {
    let sorted = ["10", "9.99", "-1", "-1.5", "0.001", "100", "0", "9.999"].map { Price($0)! }.sorted()
    #expect(sorted.map(\.text) == ["-1.5", "-1", "0", "0.001", "9.99", "9.999", "10", "100"])
    #expect(!(Price("5.0")! < Price("5")!))
    #expect(Price("-2")! < Price("-1.99")!)
  }
}

import Testing

@testable import JSON

@Suite struct JSONParserTests {
  let parser = JSONParser()

  @Test func numbersKeepTheirExactText() throws {
    let value = try parser.parse(#"[95372.09, 95372.10, 0, -0.5, 1.16539E8, 4.9e-4, 12345678901234567890]"#)
    let texts = value.arrayValue?.compactMap(\.numberText)
    #expect(texts == ["95372.09", "95372.10", "0", "-0.5", "1.16539E8", "4.9e-4", "12345678901234567890"])
  }

  @Test func objectsKeepKeyOrderAndLastDuplicateWins() throws {
    let value = try parser.parse(#"{"b":1,"a":2,"b":3}"#)
    let object = try #require(value.objectValue)
    #expect(object.keys == ["b", "a"])
    #expect(value["b"] == .number("3"))
    #expect(value["a"] == .number("2"))
    #expect(value["zz"] == nil)
  }

  @Test func largeObjectDuplicateKeys() throws {
    let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let value = try parser.parse("{\(members),\"k3\":\"x\",\"k39\":true}")
    #expect(value.objectValue?.count == 40)
    #expect(value["k3"] == .string("x"))
    #expect(value["k39"] == .bool(true))
    #expect(value.objectValue?.keys.first == "k0")
  }

  @Test func literalsAndNesting() throws {
    let value = try parser.parse(" {\"a\":[true,false,null,{}, []],\"b\":{\"c\":\"d\"}} \n")
    #expect(
      value
        == .object(
          JSONObject([
            ("a", .array([.bool(true), .bool(false), .null, .object(JSONObject()), .array([])])),
            ("b", .object(JSONObject([("c", .string("d"))]))),
          ])))
  }

  @Test func stringEscapes() throws {
    let value = try parser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\uDE00 é""#)
    #expect(value == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀 é"))
  }

  @Test func bytesAndBinaryInputAgree() throws {
    let text = #"{"type":"ping","x":[1,2]}"#
    #expect(try parser.parse(Array(text.utf8)) == (try parser.parse(text)))
  }

  @Test(arguments: [
    ("", JSONError(.unexpectedEnd, offset: 0)),
    ("   ", JSONError(.unexpectedEnd, offset: 3)),
    ("[1,]", JSONError(.unexpectedByte(UInt8(ascii: "]")), offset: 3)),
    ("{\"a\":1,}", JSONError(.unexpectedByte(UInt8(ascii: "}")), offset: 7)),
    ("01", JSONError(.invalidNumber, offset: 1)),
    ("1.", JSONError(.invalidNumber, offset: 2)),
    ("-", JSONError(.invalidNumber, offset: 1)),
    ("1e", JSONError(.invalidNumber, offset: 2)),
    (".5", JSONError(.unexpectedByte(UInt8(ascii: ".")), offset: 0)),
    ("+1", JSONError(.unexpectedByte(UInt8(ascii: "+")), offset: 0)),
    ("tru", JSONError(.unexpectedEnd, offset: 3)),
    ("nul1", JSONError(.unexpectedByte(UInt8(ascii: "1")), offset: 3)),
    ("\"abc", JSONError(.unexpectedEnd, offset: 4)),
    ("\"a\u{01}\"", JSONError(.controlCharacterInString, offset: 2)),
    (#""\x""#, JSONError(.invalidEscape, offset: 1)),
    (#""\u12G4""#, JSONError(.invalidEscape, offset: 5)),
    (#""\uD800""#, JSONError(.invalidSurrogate, offset: 1)),
    (#""\uDC00""#, JSONError(.invalidSurrogate, offset: 1)),
    ("{} x", JSONError(.trailingData, offset: 3)),
    ("{\"a\" 1}", JSONError(.unexpectedByte(UInt8(ascii: "1")), offset: 5)),
    ("{1:2}", JSONError(.unexpectedByte(UInt8(ascii: "1")), offset: 1)),
    ("[1 2]", JSONError(.unexpectedByte(UInt8(ascii: "2")), offset: 3)),
    ("NaN", JSONError(.unexpectedByte(UInt8(ascii: "N")), offset: 0)),
  ])
  func rejectsInvalidDocuments(input: String, expected: JSONError) {
    #expect(throws: expected) { try parser.parse(input) }
  }

  @Test func rejectsInvalidUTF8() {
    let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]
    #expect(throws: JSONError(.invalidUTF8, offset: 1)) { try parser.parse(bytes) }
    let escaped: [UInt8] = Array(#""\n"#.utf8) + [0xFF, 0x22]
    #expect(throws: JSONError(.invalidUTF8, offset: 1)) { try parser.parse(escaped) }
  }

  @Test func depthLimit() throws {
    let limited = JSONParser(maxDepth: 3)
    #expect(try limited.parse("[[[1]]]") == .array([.array([.array([.number("1")])])]))
    #expect(throws: JSONError(.tooDeep(limit: 3), offset: 3)) { try limited.parse("[[[[1]]]]") }
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: JSONError(.tooDeep(limit: 256), offset: 256)) { try parser.parse(deep) }
  }

  @Test func escapingRoundTrips() throws {
    let original = "IC MARKETS:1 \"q\" \\ \n\t\u{01}\u{7F} é😀"
    let quoted = JSONEscaping.quoted(original)
    #expect(quoted == #""IC MARKETS:1 \"q\" \\ \n\t\u0001\u007f é😀""#)
    #expect(try parser.parse(quoted) == .string(original))
  }

  @Test func errorDescriptionNamesOffset() {
    #expect(
      JSONError(.unexpectedByte(UInt8(ascii: "x")), offset: 7).description
        == "unexpected character 'x' at byte 7")
  }
}

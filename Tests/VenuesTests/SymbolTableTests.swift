import TestSupport
import Testing

@testable import Venues

@Suite(.ownThread) struct SymbolTableTests {
  @Test func indicesFollowInsertionOrderAndRemovalShiftsThem() {
    var table = SymbolTable(["AAPL", "MSFT", "AAPL", "BINANCE:BTCUSDT"])
    #expect(table.symbols == ["AAPL", "MSFT", "BINANCE:BTCUSDT"])
    #expect(table.index(of: "MSFT") == 1)
    table.insert("MSFT")
    table.insert("")
    #expect(table.symbols == ["AAPL", "MSFT", "BINANCE:BTCUSDT", ""])
    #expect(table.index(of: "") == 3)
    table.remove("MSFT")
    table.remove("NOPE")
    #expect(table.symbols == ["AAPL", "BINANCE:BTCUSDT", ""])
    #expect(table.index(of: "BINANCE:BTCUSDT") == 1)
    #expect(table.index(of: "MSFT") == nil)
    #expect(SymbolTable().index(of: "") == nil)
  }

  @Test("a copy is a value: inserting into one, past a growth of its slots, leaves the other as it was")
  func copyOnWrite() {
    var grown = SymbolTable(["A", "B"])
    let kept = grown
    for index in 0..<100 { grown.insert("S\(index)") }
    #expect(kept.symbols == ["A", "B"])
    #expect(kept.index(of: "S5") == nil)
    #expect(grown.count == 102)
    #expect(grown.index(of: "S99") == 101)
    #expect(grown.index(of: "B") == 1)
    var removed = grown
    removed.remove("A")
    #expect(grown.index(of: "A") == 0)
    #expect(removed.index(of: "B") == 0)
  }

  @Test("byte for byte: canonically equivalent spellings are different symbols")
  func byteForByte() {
    let table = SymbolTable(["KRW-BTC", "caf\u{E9}"])
    #expect(table.contains("KRW-BTC") && table.contains("caf\u{E9}"))
    #expect(!table.contains("\u{212A}RW-BTC"))
    #expect(!table.contains("cafe\u{301}"))
  }

  @Test("a decoder gets the table's own string for matching bytes")
  func matchingBytes() {
    let long = "BINANCE:LONGSYMBOLNAMEUSDT"
    let table = SymbolTable(["A", long])
    let found = Array(long.utf8).withUnsafeBytes { table.symbol(matching: $0) }
    #expect(found.map { Array($0.utf8) } == Array(long.utf8))
    #expect(Array("BINANCE:LONGSYMBOLNAMEUSD".utf8).withUnsafeBytes { table.symbol(matching: $0) } == nil)
  }

  @Test(
    "agrees with a dictionary through random inserts, removals and lookups", arguments: [1, 2, 3] as [UInt64])
  func agreesWithADictionary(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var table = SymbolTable()
    var model: [String] = []
    let names = (0..<3_000).map {
      "S\($0 % 7 == 0 ? "" : "YM")\($0)\($0 % 3 == 0 ? ":LONG-ENOUGH-TO-BE-ON-THE-HEAP" : "")"
    }
    for step in 0..<6_000 {
      let name = names[Int.random(in: 0..<names.count, using: &random)]
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<6:
        table.insert(name)
        if !model.contains(name) { model.append(name) }
      case 6:
        table.remove(name)
        model.removeAll { $0 == name }
      default:
        #expect(table.index(of: name) == model.firstIndex(of: name), "step \(step)")
      }
    }
    #expect(table.symbols == model)
    for (index, name) in model.enumerated() { #expect(table.index(of: name) == index) }
  }
}

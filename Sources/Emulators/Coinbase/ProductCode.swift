/// The shape Upbit's market codes and Coinbase's product ids share: two groups of upper-case
/// ASCII letters and digits joined by one hyphen (`KRW-BTC`, `BTC-USD`). The venues list only
/// such codes; a demo that accepts any symbol accepts those of this shape.
enum ProductCode {
  static func isWellFormed(_ code: String) -> Bool {
    let groups = code.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    return groups.count == 2
      && groups.allSatisfy { group in
        !group.isEmpty
          && group.allSatisfy {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
              || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          }
      }
  }
}

import Emulators
import Foundation
import Testing
import Venues

@testable import TestSupport

/// A venue is its folders and one line: nothing in `Sources/`, `Fuzz/` or `Scripts/` outside a
/// venue's own folders (`Sources/Venues/<Venue>/`, `Sources/Emulators/<Venue>/`) names it in code,
/// but its catalog line. The default provider is the one exception (its name stands in defaults
/// and its wire format is `ticker serve`'s). Comments may name venues; code may not.
@Suite("The venue seam", .ownThread)
struct VenueSeamTests {
  /// A venue's folder name: its display name without what a file name cannot hold.
  static func folder(_ provider: any Provider) -> String {
    String(provider.displayName.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
  }

  /// Every source and script file of the three trees, as (path from the root, lines).
  static func files() throws -> [(path: String, lines: [Substring])] {
    let root = TestTools.repositoryRoot
    var out: [(String, [Substring])] = []
    for tree in ["Sources", "Fuzz", "Scripts"] {
      guard let walker = FileManager.default.enumerator(atPath: root + "/" + tree) else { continue }
      while let relative = walker.nextObject() as? String {
        let path = tree + "/" + relative
        guard [".swift", ".py", ".sh", ".c", ".h"].contains(where: { path.hasSuffix($0) }),
          !path.hasPrefix("Fuzz/corpus/"), !path.hasPrefix("Fuzz/.build/"), !path.hasPrefix("Fuzz/out/")
        else { continue }
        let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        out.append((path, text.split(separator: "\n", omittingEmptySubsequences: false)))
      }
    }
    return out
  }

  /// The line without a `//` or `#` comment (a crude cut: enough for names in prose).
  static func code(_ line: Substring, python: Bool) -> Substring {
    let trimmed = line.drop { $0 == " " }
    if trimmed.hasPrefix("//") || (python && trimmed.hasPrefix("#")) { return "" }
    if let comment = line.range(of: " // ") { return line[..<comment.lowerBound] }
    return line
  }

  /// Whether `word` stands in `text` as a whole word (letters and digits around it do not count).
  static func names(_ text: Substring, _ word: String) -> Bool {
    var rest = text[...]
    while let found = rest.range(of: word) {
      let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
      let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
      let boundary: (Character?) -> Bool = { $0.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true }
      if boundary(before) && boundary(after) { return true }
      rest = text[found.upperBound...]
    }
    return false
  }

  @Test("no venue but the default provider is named in code outside its folders and its catalog line")
  func namedOnlyInItsFolders() throws {
    let files = try Self.files()
    #expect(files.count > 100)  // the trees were read
    let venues = ProviderCatalog.all.filter { $0.name != ProviderCatalog.defaultProvider.name }
    #expect(!venues.isEmpty)
    var found: [String] = []
    for venue in venues {
      let folder = Self.folder(venue)
      let own = ["Sources/Venues/\(folder)/", "Sources/Emulators/\(folder)/"]
      for file in files where !own.contains(where: { file.path.hasPrefix($0) }) {
        let python = file.path.hasSuffix(".py") || file.path.hasSuffix(".sh")
        for (number, line) in file.lines.enumerated() {
          let code = Self.code(line, python: python)
          // The catalog's line: the provider's type, constructed.
          if file.path.hasSuffix("Venues/Core/ProviderCatalog.swift") && code.contains("Provider()") {
            continue
          }
          let words = [venue.name, venue.displayName, folder + "Provider", folder + "Rules"]
          if let word = words.first(where: { Self.names(code, $0) }) {
            found.append("\(file.path):\(number + 1): \(word)")
          }
        }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test("every venue of the catalog has its emulation, its demo and its fixture")
  func everyVenueComplete() throws {
    for provider in ProviderCatalog.all {
      let emulation = try #require(VenueEmulation(provider), "\(provider.name) has no emulation")
      #expect(!emulation.demoSession.isEmpty)
      #expect(!emulation.demoPrices.isEmpty, "\(provider.name)")
      #expect(!emulation.fuzzSeeds.isEmpty, "\(provider.name)")
      #expect(throws: Never.self) { try Fixture.text("\(provider.name)-session.ndjson") }
      if case .failure(let error) = provider.canonicalSymbol(provider.exampleSymbol) {
        Issue.record("\(provider.name)'s example symbol is not one of its symbols: \(error)")
      }
    }
  }
}

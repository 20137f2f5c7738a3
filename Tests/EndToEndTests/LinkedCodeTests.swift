import EnginePlugin
import Foundation
import TestSupport
import Testing

/// What the built ticker links (docs/install.md, the static build). The native ticker never links
/// Foundation: Foundation, its Essentials and Internationalization and ICU's data cost about
/// 4.5 MB of resident memory and 60 MB on disk, and one `import Foundation` in any module the
/// ticker links brings them all back (it did once, unnoticed, through a key-file reader).
@Suite("Linked code", .ownThread)
struct LinkedCodeTests {
  /// Libraries the dynamically linked ticker must not need, by name prefix.
  static let bannedLibraries = [
    "libFoundation", "lib_FoundationICU", "lib_FoundationCShims", "lib_FoundationCollections", "libicu",
  ]
  /// The mangled module names (length-prefixed, as in every Swift symbol of the module) and ICU's
  /// C functions as the toolchain's `_FoundationICU` renames them.
  static let bannedSymbolParts = [
    "10Foundation", "20FoundationEssentials", "31FoundationInternationalization", "14_FoundationICU",
    "19_FoundationCShims", "23_FoundationCollections", "swift_ucol_", "swift_ubrk_", "swift_udat_",
  ]

  static func read(_ url: URL) throws -> Data { try Data(contentsOf: url, options: .alwaysMapped) }

  @Test("the ticker calls nothing in _StringProcessing or _RegexParser (a static build links them whole)")
  func noStringProcessing() throws {
    let data = try Self.read(TickerProcess.built)
    let outcome = data.withUnsafeBytes { ELFImports.undefinedSymbols(in: $0, prefix: "$s") }
    guard case .imports(let swiftImports) = outcome else {
      Issue.record("cannot read the ticker's imports: \(outcome)")
      return
    }
    // The reading worked: the ticker imports the standard library's symbols.
    #expect(swiftImports.contains { $0.hasPrefix("$ss") })
    let banned = swiftImports.filter { $0.contains("17_StringProcessing") || $0.contains("12_RegexParser") }
    #expect(banned.isEmpty, "use TextSearch (WebSocketClient) instead: \(banned)")
  }

  @Test("the dynamically linked ticker needs no Foundation library and no ICU")
  func dynamicBuildNeedsNoFoundation() throws {
    let data = try Self.read(TickerProcess.built)
    let outcome = data.withUnsafeBytes { ELFImports.neededLibraries(in: $0) }
    guard case .imports(let needed) = outcome else {
      Issue.record("cannot read the libraries the ticker needs: \(outcome)")
      return
    }
    // The reading worked: it needs the Swift runtime.
    #expect(needed.contains("libswiftCore.so"), "\(needed)")
    let banned = needed.filter { library in Self.bannedLibraries.contains { library.hasPrefix($0) } }
    #expect(
      banned.isEmpty,
      "the ticker links \(banned): a module it links imports Foundation (read files with WholeFile)")
  }

  @Test(
    "the static ticker carries no Foundation and no ICU",
    .enabled(if: StaticBuild.isAvailable || StaticBuild.isRequired, StaticBuild.skipReason))
  func staticBuildCarriesNoFoundation() throws {
    let data = try Self.read(URL(fileURLWithPath: StaticBuild.executable))
    // Proof that the symbol table is there and read: the standard library is linked in.
    let core = data.withUnsafeBytes { ELFImports.definedSymbols(in: $0, containing: ["$sSS5countSivg"]) }
    guard case .imports(let coreSymbols) = core else {
      Issue.record("cannot read the static ticker's symbols: \(core)")
      return
    }
    #expect(!coreSymbols.isEmpty)
    let outcome = data.withUnsafeBytes {
      ELFImports.definedSymbols(in: $0, containing: Self.bannedSymbolParts)
    }
    guard case .imports(let banned) = outcome else {
      Issue.record("cannot read the static ticker's symbols: \(outcome)")
      return
    }
    #expect(
      banned.count == 0,
      "the static ticker carries \(banned.count) Foundation or ICU symbols, e.g. \(banned.prefix(5))")
  }
}

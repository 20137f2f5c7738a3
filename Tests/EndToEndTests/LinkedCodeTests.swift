import EnginePlugin
import Foundation
import Testing

/// What the built ticker links (docs/install.md, the static build).
@Suite("Linked code")
struct LinkedCodeTests {
  @Test("the ticker calls nothing in _StringProcessing or _RegexParser (a static build links them whole)")
  func noStringProcessing() throws {
    let data = try Data(contentsOf: TickerProcess.built)
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
}

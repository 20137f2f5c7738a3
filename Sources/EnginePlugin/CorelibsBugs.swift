/// Layer 3: is swift-corelibs-foundation's WebSocket code above libcurl known to be correct?
///
/// On Linux there is no ABI stability: the ticker and its plugin run only with the Foundation of
/// the toolchain that built them, so the compiler version names the corelibs version. No
/// version is known to be correct yet: 6.3.1 was measured (docs/engines.md)
/// and later ones have not been, so `auto` keeps the native engine for them too until a version
/// is measured and added to `knownCorrect`.
public enum CorelibsBugs {
  /// What corelibs 6.3.1's WebSocket path was measured to get wrong with libcurl 8.14.1.
  public static let measured: [String] = [
    "messages over about 4 KiB arrive cut into pieces (and a cut inside a UTF-8 character crashes the process)",
    "a fragmented message arrives as one message per fragment",
    "a message that arrives while the client sends can stall until more bytes come",
    "sendPing never completes and empty messages are lost",
    "application close codes (4000-4999) are reported as 1003",
    "a refused upgrade is reported as opened",
    "without a Connection: Upgrade header every server answers 426",
  ]

  /// Versions whose WebSocket path was measured to be correct. None yet.
  public static let knownCorrect: [String] = []

  /// The corelibs version this build runs with (the toolchain's).
  public static var toolchainVersion: String {
    #if compiler(>=6.3.2)
      return "later than 6.3.1"
    #elseif compiler(>=6.3.1)
      return "6.3.1"
    #else
      return "earlier than 6.3.1"
    #endif
  }

  public static func report(version: String = toolchainVersion) -> LayerReport {
    if knownCorrect.contains(version) {
      return LayerReport(.corelibsBugs, allows: true, "corelibs \(version) is known to be correct")
    }
    return LayerReport(
      .corelibsBugs, allows: false,
      "corelibs \(version) is not known to be correct (measured at 6.3.1: \(summary))")
  }

  /// The bugs in one line, for warnings.
  public static var summary: String { measured.prefix(4).joined(separator: "; ") }
}

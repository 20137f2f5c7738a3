import Testing

@testable import EnginePlugin

/// `URLSessionCompanion.plan`: only a static ticker asked for the URLSession engine leaves its
/// process, and only for an executable companion at `<prefix>/libexec/ticker/ticker`.
@Suite("URLSession companion plan")
struct URLSessionCompanionTests {
  @Test(
    "where the companion is, for an executable in <prefix>/bin",
    arguments: [
      ("/usr/local/bin", "/usr/local/libexec/ticker/ticker"),
      ("/home/a b/.local/bin", "/home/a b/.local/libexec/ticker/ticker"),
      ("/bin", "/libexec/ticker/ticker"),
      ("/", "/libexec/ticker/ticker"),
    ])
  func path(directory: String, expected: String) {
    #expect(URLSessionCompanion.path(executableDirectory: directory) == expected)
  }

  @Test("a dynamically linked ticker, or one not asked for URLSession, stays; nothing is looked at")
  func stays() {
    for (wants, isStatic) in [(true, false), (false, true), (false, false)] {
      let plan = URLSessionCompanion.plan(
        wantsURLSession: wants, isStatic: isStatic, executableDirectory: "/p/bin",
        isExecutable: { path in
          Issue.record("looked at \(path)")
          return true
        })
      #expect(plan == .stay)
    }
  }

  @Test("a static ticker asked for URLSession: the companion if it is executable, else where it would be")
  func staticTicker() {
    let present = URLSessionCompanion.plan(
      wantsURLSession: true, isStatic: true, executableDirectory: "/p/bin",
      isExecutable: { $0 == "/p/libexec/ticker/ticker" })
    #expect(present == .exec(path: "/p/libexec/ticker/ticker"))
    let absent = URLSessionCompanion.plan(
      wantsURLSession: true, isStatic: true, executableDirectory: "/p/bin", isExecutable: { _ in false })
    #expect(absent == .missing(path: "/p/libexec/ticker/ticker"))
    let unknown = URLSessionCompanion.plan(
      wantsURLSession: true, isStatic: true, executableDirectory: nil, isExecutable: { _ in true })
    #expect(unknown == .missing(path: nil))
  }

  @Test("a failed exec returns the reason and leaves this process running")
  func failedExec() {
    let why = URLSessionCompanion.exec(path: "/nonexistent/ticker", arguments: ["--version"])
    #expect(why == "No such file or directory")
  }
}

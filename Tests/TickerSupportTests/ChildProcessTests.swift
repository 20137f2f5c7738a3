import Testing

@testable import TickerSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("ChildProcess: /bin/sh -c with exactly the given environment")
struct ChildProcessTests {
  @Test("the exit status and the signal that ended it come back")
  func endings() throws {
    #expect(try ChildProcess.shell("exit 7", environment: []).wait() == .exited(7))
    #expect(try ChildProcess.shell("true", environment: []).wait() == .exited(0))
    #expect(try ChildProcess.shell("kill -9 $$", environment: []).wait() == .signalled(9))
  }

  @Test("the environment is exactly what was given, and the command text is not built from it")
  func environment() throws {
    let hostile = "$(exit 9); exit 8 `exit 7` \"'"
    let child = try ChildProcess.shell(
      #"[ "$X" = "$EXPECTED" ] && [ -z "${HOME+set}" ] || exit 1"#,
      environment: ["X=\(hostile)", "EXPECTED=\(hostile)"])
    #expect(child.wait() == .exited(0))
  }

  @Test("signalGroup reaches what the shell started too")
  func group() throws {
    // The shell waits for a child of its own; ending the group ends both.
    let child = try ChildProcess.shell("sleep 300; exit 0", environment: [])
    child.signalGroup(SIGTERM)
    #expect(child.wait() == .signalled(SIGTERM))
  }
}

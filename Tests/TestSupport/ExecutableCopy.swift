/// Copies of executables that a test then runs. The copy is written by `cp` in a child process,
/// never in the test process: a file this process held open for writing would be inherited by
/// any child a parallel test forks in that moment, and running the copy would then fail with
/// ETXTBSY ("Text file busy") until that child execs.
package enum ExecutableCopy {
  package struct Failed: Error, CustomStringConvertible {
    package var description: String
  }

  /// Copies `source` to `destination` (mode included) and waits for the copy to be complete.
  package static func copy(_ source: String, to destination: String) async throws {
    let run = try await Spawned.run("/bin/cp", ["-p", source, destination], timeout: 60)
    guard run.termination == .exited(0) else {
      throw Failed(description: "cp \(source) \(destination): \(run.termination as Any) \(run.errorText)")
    }
  }
}

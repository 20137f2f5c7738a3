import Testing

/// `.requires(.websocat, ...)`: a test (or every test of a suite) that needs these tools. They
/// are looked for while Swift Testing plans the run, before any test starts (so that the
/// bootstrap's minutes on a fresh machine count against no test's time limit); one still missing
/// after the bootstrap fails the test, naming it.
package struct ToolRequirement: TestTrait, SuiteTrait {
  package var tools: [TestTool]

  package func prepare(for test: Test) async throws {
    try TestTools.require(tools)
  }
}

extension Trait where Self == ToolRequirement {
  package static func requires(_ tools: TestTool...) -> Self { ToolRequirement(tools: tools) }
}

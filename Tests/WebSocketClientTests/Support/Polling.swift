/// Yields until `condition` holds or about `seconds` pass: a hang guard for a test that waits for
/// something another task or thread does, not a timing check.
func pollUntil(seconds: Double, _ condition: () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let limit = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
  while clock.now < limit {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return condition()
}

import Dispatch

/// Dispatch sources kept to be cancelled. `@unchecked`: only touched under the owner's lock, and
/// `cancel` is thread-safe.
struct DispatchSources: @unchecked Sendable {
  var list: [any DispatchSourceProtocol] = []

  mutating func cancelAll() {
    for source in list { source.cancel() }
    list = []
  }
}

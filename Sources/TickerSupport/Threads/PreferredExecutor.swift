/// The executor the runtime's own unstructured tasks prefer, for the task tree that sets it:
/// nil (Swift's global pool) unless an embedder runs a feed somewhere else, such as a test that
/// keeps a feed's timers on a thread of its own while other tests compute on the pool's few
/// threads. Needed because `Task {}` does not keep its creator's executor preference (SE-0417):
/// a task-local is copied into it, the preference is not.
public enum PreferredExecutor {
  @TaskLocal public static var current: (any TaskExecutor)?
}

extension Task where Failure == Never {
  /// An unstructured task that prefers `PreferredExecutor.current` (as `Task {}` when it is nil).
  @discardableResult
  public static func preferringCurrentExecutor(
    priority: TaskPriority? = nil, operation: sending @escaping () async -> Success
  ) -> Task<Success, Never> {
    Task(executorPreference: PreferredExecutor.current, priority: priority, operation: operation)
  }
}

extension Task where Failure == any Error {
  /// A throwing unstructured task that prefers `PreferredExecutor.current`.
  @discardableResult
  public static func preferringCurrentExecutor(
    priority: TaskPriority? = nil, operation: sending @escaping () async throws -> Success
  ) -> Task<Success, any Error> {
    Task(executorPreference: PreferredExecutor.current, priority: priority, operation: operation)
  }
}

/// A JSON document of the wrong shape for what a provider expected: a human-readable path and
/// requirement, e.g. `data[1]: "p" must be a number`.
public struct ShapeError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

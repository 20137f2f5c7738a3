/// `PUB` commands back to back, and where each ends (what `NATSPublisher.publish` takes).
public struct PublishBatch: Sendable {
  public var bytes: [UInt8] = []
  public var ends: [Int] = []

  public init() {}

  /// Appends one command (`NATSCommands.appendPublish`).
  public mutating func append(subject: some Collection<UInt8>, payload: some Collection<UInt8>) {
    NATSCommands.appendPublish(subject: subject, payload: payload, to: &bytes)
    ends.append(bytes.count)
  }

  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
  }
}

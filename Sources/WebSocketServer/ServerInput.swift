import Transport

/// The receiving side of one accepted connection: the client's bytes, a chunk at a time.
public struct ServerInput: Sendable {
  public let stream: TCPStream

  public init(stream: TCPStream) { self.stream = stream }

  /// The next bytes (at most 16 KiB); empty at end of stream; nil when reading failed, timed
  /// out or the connection was shut down.
  public func read(timeout: Double?) -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    var count: Int?
    chunk.withUnsafeMutableBytes { raw in
      count = try? stream.read(into: raw, timeout: timeout)
    }
    guard let count else { return nil }
    return Array(chunk[0..<count])
  }
}

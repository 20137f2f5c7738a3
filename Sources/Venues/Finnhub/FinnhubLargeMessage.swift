import JSON
import WebSocketWire

/// Finnhub messages of `LargeMessage.threshold` bytes and more, in two passes over the bytes:
/// the first checks the whole message (a trade message? which entries are valid?) keeping no
/// quote, and notes where every `chunkSize`-th trade starts; then each chunk is decoded from its
/// offset on demand. The fast scanner does both passes when it can; otherwise the model path
/// does, one `data` entry at a time (`JSONParser.parseStreaming`). Either way the quotes and
/// drops are those `FinnhubProvider.decode(_:)` gives for the same message.
struct FinnhubLargeMessage {
  let parser: JSONParser

  func decode(_ message: WebSocketMessage) -> LargeMessage {
    let fast: LargeMessage? = message.withBytes { bytes in
      var scanner = FinnhubFastPath.Scanner(bytes: bytes)
      scanner.keep = false
      let starts = FinnhubFastPath.TradeStarts(every: LargeMessage.chunkSize)
      scanner.starts = starts
      var none: [Quote] = []
      switch scanner.message(into: &none) {
      case .trades:
        let chunks = Chunks(
          message: message, starts: starts.offsets, count: scanner.tradeCount, path: .fast(parser))
        return .chunks(chunks, dropped: [], droppedCount: 0)
      case .keepalive: return .event(.keepalive)
      case .undecided: return nil
      }
    }
    return fast ?? model(message)
  }

  /// The model path's first pass: the message without its `data` entries, each entry checked
  /// as `PriceData` and dropped.
  private func model(_ message: WebSocketMessage) -> LargeMessage {
    var valid = 0
    var dropped: [String] = []
    var droppedCount = 0
    let parsed: Result<(object: JSONValue, streamedStarts: [Int], streamedCount: Int), JSONError> =
      message.withBytes { bytes in
        do throws(JSONError) {
          return .success(
            try parser.parseStreaming(bytes, arrayUnder: "data", every: LargeMessage.chunkSize) { entry in
              guard let entry else {
                (valid, dropped, droppedCount) = (0, [], 0)
                return
              }
              do throws(ShapeError) {
                _ = try PriceData(json: entry)
                valid += 1
              } catch {
                if dropped.count < LargeMessage.droppedDescriptions {
                  dropped.append("data[\(valid + droppedCount)]: \(error.message)")
                }
                droppedCount += 1
              }
            })
        } catch {
          return .failure(error)
        }
      }
    let streamed: (object: JSONValue, streamedStarts: [Int], streamedCount: Int)
    switch parsed {
    case .failure(let error): return .event(.malformed("invalid JSON: \(error)"))
    case .success(let result): streamed = result
    }
    // The rest of the message decides as in `decode(json:)`; `data` is there as an empty array.
    let response: APIResponse
    do throws(ShapeError) {
      response = try APIResponse(json: streamed.object)
    } catch {
      return .event(.malformed(error.message))
    }
    switch response.type {
    case "trade":
      let hasData = streamed.object["data"].map { !$0.isNull } ?? false
      guard hasData else { return .event(.malformed(#"trade message without "data""#)) }
      if valid == 0 && droppedCount > 0 {
        return .event(.malformed("every trade entry was invalid: " + Self.describe(dropped, droppedCount)))
      }
      let chunks = Chunks(
        message: message, starts: streamed.streamedStarts, count: streamed.streamedCount, path: .model(parser)
      )
      return .chunks(chunks, dropped: dropped, droppedCount: droppedCount)
    case "ping": return .event(.keepalive)
    case "error":
      return .event(.error(FinnhubProvider.error(response.msg)))
    default: return .event(.ignored(response.type))
    }
  }

  static func describe(_ dropped: [String], _ count: Int) -> String {
    dropped.joined(separator: "; ") + (count > dropped.count ? "; and \(count - dropped.count) more" : "")
  }

  /// The second pass: one chunk of quotes per call, decoded from its recorded offset.
  struct Chunks: QuoteChunks {
    enum Path: Sendable {
      case fast(JSONParser)
      case model(JSONParser)
    }

    let message: WebSocketMessage
    let starts: [Int]
    let count: Int
    let path: Path
    var chunk = 0

    mutating func next(into quotes: inout [Quote]) -> Bool {
      guard chunk < starts.count else { return false }
      let start = starts[chunk]
      let n = min(LargeMessage.chunkSize, count - chunk * LargeMessage.chunkSize)
      chunk += 1
      let path = self.path
      message.withBytes { bytes in
        switch path {
        case .fast:
          var scanner = FinnhubFastPath.Scanner(bytes: bytes)
          scanner.i = start
          // Checked by the first pass; a failure here would be a bug, and loses only this chunk.
          _ = scanner.trades(count: n, into: &quotes)
        case .model(let parser):
          try? parser.parseElements(bytes, from: start, count: n) { entry in
            if let data = try? PriceData(json: entry) { quotes.append(data.quote) }
          }
        }
      }
      return true
    }
  }
}

extension WebSocketMessage {
  /// Runs `body` with the message's bytes (a text message's UTF-8), where they lie: a native
  /// string is read in place (no copy of it to retain and release); only another kind is made
  /// contiguous in a copy.
  @inline(__always)
  func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
    switch self {
    case .text(let text):
      if let result = text.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
        return result
      }
      var copy = text
      return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    case .binary(let bytes): return bytes.withUnsafeBytes(body)
    }
  }
}

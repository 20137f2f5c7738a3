// libFuzzer harness: FrameParser (client or server role) feeding MessageAssembler.
// Built by Fuzz/run.sh; not part of the SwiftPM package.
import TickerSupport
import WebSocketClient
import WebSocketWire

/// Parses `chunks` in order; returns every frame and the error that stopped parsing, if any.
private func parseAll(
  _ chunks: [ArraySlice<UInt8>], role: FrameParser.Role, limit: Int
) -> (frames: [Frame], error: FrameError?) {
  var parser = FrameParser(role: role, maximumFrameSize: limit)
  var frames: [Frame] = []
  for chunk in chunks {
    parser.append(chunk)
    while true {
      do throws(FrameError) {
        guard let frame = try parser.next() else { break }
        frames.append(frame)
      } catch {
        // A failed parser must keep failing with the same error.
        do throws(FrameError) {
          _ = try parser.next()
          fatalError("parser recovered after \(error)")
        } catch let again {
          precondition(again == error, "parser changed its error: \(error) then \(again)")
        }
        return (frames, error)
      }
    }
  }
  return (frames, nil)
}

/// Feeds `chunks` and, whenever the parser needs more bytes, has the assembler check the frame
/// still arriving, as the connection's reader does. A frame it refuses as invalid UTF-8 must be a
/// text frame whose bytes so far are no valid UTF-8 prefix.
private func inspectWhileArriving(_ chunks: [ArraySlice<UInt8>], role: FrameParser.Role, limit: Int) {
  var parser = FrameParser(role: role, maximumFrameSize: limit)
  var assembler = MessageAssembler(maximumMessageSize: limit)
  for chunk in chunks {
    parser.append(chunk)
    do throws(FrameError) {
      while let frame = try parser.next() { _ = try assembler.receive(frame) }
      let partial = parser.partialFrame
      do throws(FrameError) {
        try assembler.inspect(partial)
      } catch {
        precondition(error == .invalidUTF8, "inspect threw \(error)")
        precondition(
          partial?.opcode == .text || partial?.opcode == .continuation, "inspect refused a non-text frame")
      }
    } catch {
      return
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let first = data[0]
  let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let role: FrameParser.Role = first & 1 == 0 ? .client : .server
  // Small limits are worth hitting too; bit 1 picks between 125 bytes and 1 MiB.
  let limit = first & 2 == 0 ? 1 << 20 : 125
  let split = input.isEmpty ? 0 : Int(first >> 2) % (input.count + 1)

  let whole = parseAll([input[...]], role: role, limit: limit)
  let chunked = parseAll([input[..<split], input[split...]], role: role, limit: limit)
  // Chunking must not change what is parsed.
  precondition(whole.frames == chunked.frames, "frames differ when split at \(split)")
  precondition(whole.error == chunked.error, "errors differ when split at \(split)")

  // Incremental UTF-8 validation agrees with the standard library however the bytes are split,
  // and checking the payload of a frame still arriving never traps.
  var validator = UTF8Validator()
  let incremental = validator.feed(input[..<split]) && validator.feed(input[split...]) && validator.isComplete
  precondition(incremental == (String(validating: input, as: UTF8.self) != nil), "UTF-8 verdicts differ")
  inspectWhileArriving([input[..<split], input[split...]], role: role, limit: limit)

  // Messages made in place are the messages made frame by frame; errors come at the same point.
  let chunks = [input[..<split], input[split...]]
  let fresh = (FrameParser(role: role, maximumFrameSize: limit), MessageAssembler(maximumMessageSize: limit))
  let framewise = assembleAll(chunks, parser: fresh.0, assembler: fresh.1, inPlace: false, inspecting: false)
  let inPlace = assembleAll(chunks, parser: fresh.0, assembler: fresh.1, inPlace: true, inspecting: false)
  precondition(framewise.events == inPlace.events, "in-place events differ")
  precondition(framewise.error == inPlace.error, "in-place errors differ")

  var assembler = MessageAssembler(maximumMessageSize: limit)
  for frame in whole.frames {
    precondition(frame.rsv == 0, "frame with RSV bits accepted")
    precondition(frame.payload.count <= limit, "frame over the size limit accepted")
    if frame.opcode.isControl {
      precondition(frame.fin && frame.payload.count <= 125, "bad control frame accepted")
    }
    // Re-encoding a parsed frame and parsing it again gives the same frame.
    let key: UInt32? = role == .server ? 0xA1B2_C3D4 : nil
    let again = parseAll([FrameEncoder.encode(frame, maskingKey: key)[...]], role: role, limit: limit)
    precondition(again.error == nil && again.frames == [frame], "re-encoded frame does not round-trip")

    let event: MessageAssembler.Event?
    do throws(FrameError) {
      event = try assembler.receive(frame)
    } catch {
      break
    }
    switch event {
    case .message(.binary(let bytes))?:
      precondition(bytes.count <= limit, "binary message over the limit")
    case .message(.text(let text))?:
      precondition(text.utf8.count <= limit, "text message over the limit")
    case .close(let status?)?:
      precondition(status.code.isValidOnWire, "close code not valid on the wire accepted")
      // Our own close frame for the status decodes back to it (the reason fits: ≤ 123 bytes).
      let echoed = Frame.close(status)
      precondition(echoed.payload == frame.payload, "close frame does not round-trip")
    default:
      break
    }
  }
  return 0
}

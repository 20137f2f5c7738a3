import TickerSupport

// libFuzzer harness: permessage-deflate (RFC 7692) on the receiving side — compressed frames
// through FrameParser (RSV1 allowed) and MessageAssembler (inflating), and the Inflater alone.
// Built by Fuzz/run.sh; not part of the SwiftPM package.
@testable import WebSocketClient
@testable import WebSocketWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  // The control byte: bit 0 no context takeover, bits 1–3 the window (9 + n, at most 15), bit 4
  // a small limit (4 KiB) instead of 1 MiB, the rest where to split the input.
  let first = data[0]
  let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let deflate = PerMessageDeflate(
    inboundNoContextTakeover: first & 1 == 1, inboundWindowBits: min(15, 9 + Int((first >> 1) & 7)))
  let limit = first & 0x10 == 0 ? 1 << 20 : 4096
  let split = input.isEmpty ? 0 : Int(first >> 5) * input.count / 7

  // Frames: whatever the bytes, messages stay within the limit, and text is valid UTF-8 (a String
  // holds it); the in-place path and the frame-by-frame path agree; splitting changes nothing.
  let chunks = [input[..<split], input[split...]]
  let parser = FrameParser(role: .client, maximumFrameSize: limit, allowsCompression: true)
  let assembler = MessageAssembler(maximumMessageSize: limit, inflation: deflate)
  let framewise = assembleAll(chunks, parser: parser, assembler: assembler, inPlace: false, inspecting: true)
  let inPlace = assembleAll(chunks, parser: parser, assembler: assembler, inPlace: true, inspecting: true)
  let whole = assembleAll([input[...]], parser: parser, assembler: assembler, inPlace: true, inspecting: true)
  precondition(framewise.events == inPlace.events && framewise.error == inPlace.error, "paths differ")
  precondition(whole.events == inPlace.events && whole.error == inPlace.error, "splitting changed the result")
  for event in whole.events {
    switch event {
    case .message(.binary(let bytes)): precondition(bytes.count <= limit, "binary message over the limit")
    case .message(.text(let text)): precondition(text.utf8.count <= limit, "text message over the limit")
    default: break
    }
  }

  // The Inflater alone, on the raw bytes as one message: never more than the limit comes out.
  let inflater = Inflater(windowBits: deflate.inboundWindowBits)
  var out: [UInt8] = []
  do throws(FrameError) {
    try inflater.inflate(input, into: &out, limit: limit)
    try inflater.finishMessage(into: &out, limit: limit)
  } catch {
    switch error {
    case .messageTooLarge(let seen):
      precondition(seen > UInt64(limit), "refused under the limit")
    case .invalidCompressedData: break
    default: preconditionFailure("unexpected error \(error)")
    }
  }
  precondition(out.count <= limit, "inflated past the limit")

  // Round trip: what our deflater makes of the bytes inflates back to them, with or without
  // context takeover, in any window the peer may have agreed to.
  var compressor = MessageCompressor(
    agreed: PerMessageDeflate(
      outboundNoContextTakeover: first & 1 == 1, outboundWindowBits: deflate.inboundWindowBits))
  let peer = Inflater(windowBits: deflate.inboundWindowBits)
  for message in [input, Array(input.reversed()), input] {
    let frame = compressor.encode(Frame(opcode: .binary, payload: message))
    guard frame.rsv != 0 else {
      precondition(frame.payload == message, "an uncompressed frame changed")
      continue
    }
    var back: [UInt8] = []
    do throws(FrameError) {
      try peer.inflate(frame.payload + Inflater.tail, into: &back, limit: 1 << 30)
    } catch {
      preconditionFailure("our own compressed message did not inflate: \(error)")
    }
    precondition(back == message, "round trip changed the message")
    precondition(frame.payload.count < message.count, "compressed without gain")
    if first & 1 == 1 { peer.reset() }
  }
  return 0
}

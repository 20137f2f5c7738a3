import TickerSupport

// Shared by the harnesses that drive MessageAssembler (compiled into each by Fuzz/run.sh).
@testable import WebSocketClient
@testable import WebSocketWire

/// Feeds `chunks` in order through `parser` and `assembler`: frame by frame (`receive`) or in
/// place (`next(from:)`), and with `inspecting`, checking each partial frame as it stands after a
/// chunk (as the connection's reader does). Every event, and the error that stopped it, if any.
func assembleAll(
  _ chunks: [ArraySlice<UInt8>], parser: FrameParser, assembler: MessageAssembler, inPlace: Bool,
  inspecting: Bool
) -> (events: [MessageAssembler.Event], error: FrameError?) {
  var parser = parser
  var assembler = assembler
  var events: [MessageAssembler.Event] = []
  do throws(FrameError) {
    for chunk in chunks {
      parser.append(chunk)
      if inPlace {
        while let event = try assembler.next(from: &parser) { events.append(event) }
      } else {
        while let frame = try parser.next() {
          if let event = try assembler.receive(frame) { events.append(event) }
        }
      }
      if inspecting { try assembler.inspect(parser.partialFrame) }
    }
  } catch {
    return (events, error)
  }
  return (events, nil)
}

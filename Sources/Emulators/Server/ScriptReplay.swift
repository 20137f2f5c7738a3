import Recording
import WebSocketServer

/// Plays a script's server steps on one connection at the recorded pace (scaled), through the
/// venue: it starts once the venue would start sending, and the venue filters and rewrites
/// each step. `raw` steps go out as their bytes.
struct ScriptReplay {
  let script: SessionScript
  let session: VenueSession
  let writer: ServerFrameWriter
  let life: ConnectionLife

  /// True when every step was played; false when the connection began to end first (a scripted
  /// close, the venue's close or drop, the client leaving).
  func run(awaiting: Int) -> Bool {
    guard session.waitUntilReady(awaiting: awaiting) else { return false }
    for step in script.steps where step.direction == .server && step.kind != .http {
      guard life.pause(milliseconds: step.afterMilliseconds) else { return false }
      if step.kind == .raw {
        do {
          try writer.write(SessionScript.bytes(fromHex: step.body))
        } catch {
          writer.drop()
          life.finish()
          return false
        }
      } else if !session.play(step) {
        return false
      }
    }
    return true
  }
}

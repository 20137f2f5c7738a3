import Testing

@testable import NATS
@testable import NATSBridge

@Suite("SeamGate: a subject's kept last price, then its live ones, without a gap or a duplicate")
struct SeamGateTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  static func flushed(_ gate: inout SeamGate, last: [String: String] = [:]) -> [String] {
    gate.flush { subject in last[subject].map(bytes) }.map {
      "\($0.subject)=\(String(decoding: $0.payload, as: UTF8.self))"
    }
  }

  @Test("held live prices wait; the kept one goes first, then they do, in order")
  func keptThenLive() {
    var gate = SeamGate()
    gate.hold("a")
    let went1 = gate.live("a", Self.bytes("1"))
    #expect(!went1)
    let went2 = gate.live("a", Self.bytes("2"))
    #expect(!went2)
    #expect(!gate.hasReleased)
    #expect(Self.flushed(&gate).isEmpty, "nothing goes before the fetch ends")
    gate.release("a", seed: Self.bytes("0"))
    let went3 = gate.live("a", Self.bytes("3"))
    #expect(!went3, "released but not flushed: still waiting, for the order")
    #expect(gate.hasReleased)
    #expect(Self.flushed(&gate) == ["a=0", "a=1", "a=2", "a=3"])
    let went4 = gate.live("a", Self.bytes("4"))
    #expect(went4)
  }

  @Test("a kept price among the waiting ones (published after the subscription) is not given twice")
  func keptAmongWaiting() {
    var gate = SeamGate()
    gate.hold("a")
    _ = gate.live("a", Self.bytes("1"))
    _ = gate.live("a", Self.bytes("2"))
    gate.release("a", seed: Self.bytes("2"))
    #expect(Self.flushed(&gate) == ["a=1", "a=2"])
  }

  @Test("a kept price this consumer delivered before (an earlier connection) is not given again")
  func deliveredBefore() {
    var gate = SeamGate()
    gate.hold("a")
    gate.release("a", seed: Self.bytes("9"))
    #expect(Self.flushed(&gate, last: ["a": "9"]).isEmpty)
    gate.hold("a")
    gate.release("a", seed: Self.bytes("10"))
    #expect(Self.flushed(&gate, last: ["a": "9"]) == ["a=10"])
  }

  @Test("a live copy of the kept price that comes after it is dropped, once")
  func lateCopy() {
    var gate = SeamGate()
    gate.hold("a")
    gate.release("a", seed: Self.bytes("5"))
    #expect(Self.flushed(&gate) == ["a=5"])
    let went5 = gate.live("a", Self.bytes("5"))
    #expect(!went5)
    let went6 = gate.live("a", Self.bytes("5"))
    #expect(went6, "only the first: a later equal one is a new message")
  }

  @Test("no kept price: the waiting ones go; subjects flush in the order they were held; forget ends a hold")
  func severalSubjects() {
    var gate = SeamGate()
    for subject in ["c", "a", "b"] { gate.hold(subject) }
    _ = gate.live("a", Self.bytes("a1"))
    _ = gate.live("b", Self.bytes("b1"))
    let went7 = gate.live("z", Self.bytes("z1"))
    #expect(went7, "a subject not held goes at once")
    gate.release("b", seed: nil)
    gate.release("a", seed: Self.bytes("a0"))
    gate.release("c", seed: Self.bytes("c0"))
    #expect(Self.flushed(&gate) == ["c=c0", "a=a0", "a=a1", "b=b1"])
    gate.hold("d")
    gate.forget("d")
    let went8 = gate.live("d", Self.bytes("d1"))
    #expect(went8)
    #expect(!gate.hasReleased)
  }
}

import JSON
import Testing
import TickerSupport

@testable import NATS

@Suite("JetStream API requests and answers")
struct JetStreamAPITests {
  static func json(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser().parse(bytes) }

  @Test("the stream keeps the last message of each ticker subject")
  func createStream() throws {
    let (subject, body) = JetStreamAPI.createStream("TICKER")
    #expect(subject == "$JS.API.STREAM.CREATE.TICKER")
    let config = try Self.json(body)
    #expect(config["name"] == .string("TICKER"))
    #expect(config["subjects"] == .array([.string("ticker.>")]))
    #expect(config["max_msgs_per_subject"] == .number("1"))
    #expect(config["discard"] == .string("old"))
  }

  @Test("stream names and the last message by subject")
  func lookups() throws {
    let names = JetStreamAPI.streamNames(keeping: "ticker.binance.BTCUSDT")
    #expect(names.subject == "$JS.API.STREAM.NAMES")
    #expect(try Self.json(names.body)["subject"] == .string("ticker.binance.BTCUSDT"))
    let last = JetStreamAPI.lastMessage(in: "TICKER", on: "ticker.binance.BTCUSDT")
    #expect(last.subject == "$JS.API.STREAM.MSG.GET.TICKER")
    #expect(try Self.json(last.body)["last_by_subj"] == .string("ticker.binance.BTCUSDT"))
  }

  @Test("answers, as nats-server 2.9 writes them")
  func answers() throws {
    let names = Array(
      #"{"type":"io.nats.jetstream.api.v1.stream_names_response","total":1,"offset":0,"limit":1024,"streams":["TICKER","bad.name"]}"#
        .utf8)
    #expect(try JetStreamAPI.streamNames(names).get() == ["TICKER"])
    let none = Array(
      #"{"type":"io.nats.jetstream.api.v1.stream_names_response","total":0,"streams":null}"#.utf8)
    #expect(try JetStreamAPI.streamNames(none).get() == [])
    let payload = Array(#"{"symbol":"BTCUSDT"}"#.utf8)
    let message = Array(
      (#"{"type":"io.nats.jetstream.api.v1.stream_msg_get_response","message":{"subject":"ticker.binance.BTCUSDT","seq":7,"data":""#
        + Base64.encode(payload) + #"","time":"2026-12-04T22:00:00Z"}}"#).utf8)
    #expect(try JetStreamAPI.lastMessage(message).get() == payload)
    let missing = Array(
      #"{"type":"io.nats.jetstream.api.v1.stream_msg_get_response","error":{"code":404,"err_code":10037,"description":"no message found"}}"#
        .utf8)
    #expect(try JetStreamAPI.lastMessage(missing).get() == nil)
    let refused = Array(
      #"{"error":{"code":400,"err_code":10058,"description":"stream name already in use with a different configuration"}}"#
        .utf8)
    #expect(
      throws: JetStreamError(
        code: 10058, description: "stream name already in use with a different configuration")
    ) {
      try JetStreamAPI.answer(refused).get()
    }
    #expect(throws: JetStreamError.self) {
      try JetStreamAPI.lastMessage(Array(#"{"message":{"data":"%%%"}}"#.utf8)).get()
    }
    #expect(throws: JetStreamError.self) { try JetStreamAPI.lastMessage(Array("nope".utf8)).get() }
  }

  @Test(
    "stream names JetStream takes",
    arguments: [
      ("TICKER", true), ("ticker-1_x", true), ("", false), ("a.b", false), ("a b", false), ("a*", false),
      ("a>", false), ("a/b", false), (String(repeating: "x", count: 256), false),
    ])
  func names(name: String, valid: Bool) {
    #expect(JetStreamAPI.isValidStreamName(name) == valid)
  }
}

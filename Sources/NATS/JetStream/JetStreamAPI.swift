import JSON
import TickerSupport

/// The three JetStream API requests the ticker makes, as NATS request subjects and JSON bodies,
/// and what their answers mean. Pure. (JetStream's API is NATS request/reply on `$JS.API.…`
/// subjects; a server without JetStream has no responder there, so such a request goes
/// unanswered.)
public enum JetStreamAPI {
  /// The subjects `--publish` uses, all of which a stream of `--publish-stream` keeps.
  public static let subjects = "ticker.>"

  /// Creates stream `name` keeping the last message of each subject under `ticker.>` (on disk,
  /// one copy). Succeeds too when the stream exists with exactly this configuration.
  public static func createStream(_ name: String) -> (subject: String, body: [UInt8]) {
    var body = Array(#"{"name":"#.utf8)
    JSONEscaping.appendQuoted(name, to: &body)
    body += Array(
      #","subjects":["ticker.>"],"retention":"limits","max_msgs_per_subject":1,"discard":"old","storage":"file","num_replicas":1}"#
        .utf8)
    return ("$JS.API.STREAM.CREATE." + name, body)
  }

  /// The streams that keep `subject`.
  public static func streamNames(keeping subject: String) -> (subject: String, body: [UInt8]) {
    var body = Array(#"{"subject":"#.utf8)
    JSONEscaping.appendQuoted(subject, to: &body)
    body.append(UInt8(ascii: "}"))
    return ("$JS.API.STREAM.NAMES", body)
  }

  /// The last message stream `stream` holds on `subject`.
  public static func lastMessage(in stream: String, on subject: String) -> (subject: String, body: [UInt8]) {
    var body = Array(#"{"last_by_subj":"#.utf8)
    JSONEscaping.appendQuoted(subject, to: &body)
    body.append(UInt8(ascii: "}"))
    return ("$JS.API.STREAM.MSG.GET." + stream, body)
  }

  /// An answer: its JSON object, or the API's error (`description`, at most 256 bytes).
  public static func answer(_ bytes: [UInt8]) -> Result<JSONObject, JetStreamError> {
    guard let value = try? JSONParser(maxDepth: 16).parse(bytes), let object = value.objectValue else {
      return .failure(JetStreamError(code: nil, description: "an answer that is not a JSON object"))
    }
    if let error = object["error"]?.objectValue {
      let code = error["err_code"]?.numberText.flatMap { Int($0) }
      let text = error["description"]?.stringValue ?? "an error without a description"
      return .failure(JetStreamError(code: code, description: String(text.prefix(256))))
    }
    return .success(object)
  }

  /// The stream names of a `streamNames` answer (none when no stream keeps the subject).
  public static func streamNames(_ bytes: [UInt8]) -> Result<[String], JetStreamError> {
    answer(bytes).map { object in
      (object["streams"]?.arrayValue ?? []).compactMap(\.stringValue).filter(isValidStreamName)
    }
  }

  /// The payload of a `lastMessage` answer; nil when the stream holds nothing on the subject.
  public static func lastMessage(_ bytes: [UInt8]) -> Result<[UInt8]?, JetStreamError> {
    switch answer(bytes) {
    case .failure(let error) where error.code == JetStreamError.noMessageFound: return .success(nil)
    case .failure(let error): return .failure(error)
    case .success(let object):
      guard let message = object["message"]?.objectValue else {
        return .failure(JetStreamError(code: nil, description: "an answer without a message"))
      }
      guard let data = message["data"]?.stringValue else { return .success([]) }
      guard let payload = Base64.decode(data) else {
        return .failure(JetStreamError(code: nil, description: "a message whose data is not Base64"))
      }
      return .success(payload)
    }
  }

  /// A name JetStream takes for a stream: 1–255 bytes, none of them white space, `.`, `*`, `>`,
  /// `/`, `\` or a control character.
  public static func isValidStreamName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    return !bytes.isEmpty && bytes.count <= 255
      && bytes.allSatisfy { byte in
        byte > 0x20 && byte != 0x7F && !".*>/\\".utf8.contains(byte)
      }
  }
}

/// An error JetStream's API answered.
public struct JetStreamError: Error, Sendable, Equatable, CustomStringConvertible {
  /// JetStream's `err_code` (10058: the stream exists with another configuration).
  public var code: Int?
  public var description: String

  /// `err_code` of "no message found".
  public static let noMessageFound = 10037

  public init(code: Int?, description: String) {
    self.code = code
    self.description = description
  }
}

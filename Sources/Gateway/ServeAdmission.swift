import WebSocketServer

/// Who `serve` lets in, pure: a client's upgrade request answered with the `101`, or refused
/// (401 without the token, 400 for what is not a WebSocket upgrade, 400/431 for a request that
/// cannot be read, 503 when the server is full), as the bytes to send and the line to log.
enum ServeAdmission {
  enum Answer: Equatable {
    /// Upgraded: send `response`; the bytes that followed the request are already frames.
    case upgrade(response: [UInt8])
    /// Refused: send `response`, then close; `status` and `why` for the log (nil: nothing is
    /// said, as for a request that is not HTTP).
    case refuse(response: [UInt8], status: Int?, why: String)
  }

  /// The answer to a whole request head.
  static func answer(_ request: ServerHandshake.Request, token: String?) -> Answer {
    if let token,
      !ServeAccess.tokenMatches(ServeAccess.queryValue("token", in: request.target), expected: token)
    {
      return .refuse(
        response: ServerUpgrade.refusal(status: 401, reason: "Unauthorized"), status: 401,
        why: "wrong or missing token")
    }
    do throws(ServerHandshake.RequestError) {
      let key = try ServerHandshake.validateUpgrade(request)
      return .upgrade(response: ServerHandshake.upgradeResponse(forKey: key))
    } catch {
      return .refuse(response: ServerUpgrade.refusal(error), status: 400, why: "not a WebSocket upgrade")
    }
  }

  /// The answer to a request that cannot be read (not HTTP, or too large).
  static func answer(_ error: ServerHandshake.RequestError) -> Answer {
    .refuse(response: ServerUpgrade.refusal(error), status: nil, why: "")
  }

  /// The answer when `limit` clients are connected already (after their request was read:
  /// closing on unread bytes would reset the connection before the client read the answer).
  static func full(limit: Int) -> Answer {
    .refuse(
      response: ServerUpgrade.refusal(
        status: 503, reason: "Service Unavailable", headers: [("Retry-After", "5")]),
      status: 503, why: "\(limit) clients already connected")
  }
}

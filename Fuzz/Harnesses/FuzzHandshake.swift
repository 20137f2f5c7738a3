// libFuzzer harness: the client's handshake response parser, the server's request parser, and a
// request/response round trip for requests that parse. Built by Fuzz/run.sh.
import TickerSupport
import Transport
import WebSocketClient
import WebSocketServer
import WebSocketWire

/// The key of RFC 6455 §1.3's example; its accept value is s3pPLMBiTxaQ9kYGzzhZRbK+xOo=.
private let key = "dGhlIHNhbXBsZSBub25jZQ=="
private let crlfcrlf: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

private func checkHead(_ bytes: [UInt8], consumed: Int) {
  precondition(consumed >= 4 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count)")
  precondition(Array(bytes[consumed - 4..<consumed]) == crlfcrlf, "head does not end in CRLF CRLF")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // A small head limit in some runs, so the "too large" paths are reachable.
  let limit = size > 0 && data[0] & 1 == 1 ? 64 : Handshake.maximumHeadSize

  // Client side: the response head, then its validation against our key.
  do throws(HandshakeError) {
    if let parsed = try Handshake.parseResponseHead(bytes, maximumHeadSize: limit) {
      checkHead(bytes, consumed: parsed.consumed)
      // Any shorter prefix lacks the blank line, so it must ask for more bytes.
      let prefix = Array(bytes[..<(parsed.consumed - 1)])
      do throws(HandshakeError) {
        let early = try Handshake.parseResponseHead(prefix, maximumHeadSize: limit)
        precondition(early == nil, "a prefix of the head parsed")
      } catch {
        fatalError("prefix of a valid head threw \(error)")
      }
      // Bytes after the head (the first frames) do not change the head.
      let longer = bytes + [0x81, 0x00]
      let again = try Handshake.parseResponseHead(longer, maximumHeadSize: limit)
      precondition(
        again?.response == parsed.response && again?.consumed == parsed.consumed, "suffix changed head")
    }
    if let accepted = try Handshake.parseResponse(bytes, key: key, maximumHeadSize: limit) {
      precondition(accepted.response.status == 101, "accepted status \(accepted.response.status)")
      precondition(
        accepted.response.head.value(of: "Sec-WebSocket-Accept") == Handshake.acceptValue(forKey: key),
        "accepted a wrong accept value")
      precondition(accepted.deflate == nil, "compression agreed without an offer")
    }
    // With our permessage-deflate offer: whatever is agreed is something zlib can do.
    if let accepted = try Handshake.parseResponse(
      bytes, key: key, maximumHeadSize: limit, offeredDeflate: true),
      let agreed = accepted.deflate
    {
      precondition((9...15).contains(agreed.inboundWindowBits), "inbound window \(agreed.inboundWindowBits)")
      precondition(
        (9...15).contains(agreed.outboundWindowBits), "outbound window \(agreed.outboundWindowBits)")
    }
  } catch {
    _ = "\(error)"
  }

  // Server side: the upgrade request, and when it is acceptable, our answer must satisfy a client.
  do throws(ServerHandshake.RequestError) {
    if let parsed = try ServerHandshake.parseRequest(bytes, maximumHeadSize: limit) {
      checkHead(bytes, consumed: parsed.consumed)
      let clientKey = try ServerHandshake.validateUpgrade(parsed.request)
      // Whatever the client offered, what the server side answers, our client side accepts, with
      // the two sides' parameters mirrored.
      let offers = ExtensionHeader.values(in: parsed.request.head)
      let policy = PerMessageDeflate.ServerPolicy(
        serverNoContextTakeover: size & 1 == 1, clientNoContextTakeover: size & 2 == 2,
        serverMaxWindowBits: size & 4 == 4 ? 10 : nil, clientMaxWindowBits: size & 8 == 8 ? 9 : nil)
      if let answer = PerMessageDeflate.serverAgreement(to: offers, policy: policy) {
        do throws(HandshakeError) {
          let client = try PerMessageDeflate.clientAgreement(to: [answer.response], offered: true)
          precondition(client?.inboundWindowBits == answer.agreed.outboundWindowBits, "server window differs")
          precondition(
            client?.inboundNoContextTakeover == answer.agreed.outboundNoContextTakeover,
            "server reset differs")
        } catch {
          fatalError("our server's answer \(answer.response) was refused: \(error)")
        }
      }
      let response = ServerHandshake.upgradeResponse(forKey: clientKey)
      do throws(HandshakeError) {
        let answer = try Handshake.parseResponse(response, key: clientKey)
        precondition(answer?.consumed == response.count, "our 101 response was not fully parsed")
      } catch {
        fatalError("our own 101 response for key \(clientKey) was refused: \(error)")
      }
    }
  } catch {
    _ = error.status
  }

  // The client's request for any URL that parses (URLs come from config files, which are
  // untrusted too): the server side must accept it and see the same target, Host and key, and
  // exactly the header fields we sent (no line injected through the URL).
  if size <= 256, let text = String(validating: bytes, as: UTF8.self) {
    do throws(InvalidWebSocketURL) {
      let url = try WebSocketURL(parsing: text)
      precondition(
        url.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
          && url.host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
        "a target or host that is not visible ASCII")
      let request = Handshake.request(for: url, key: key, headers: [(name: "X-Fuzz", value: text)])
      do throws(ServerHandshake.RequestError) {
        guard let parsed = try ServerHandshake.parseRequest(request) else {
          fatalError("our request for \(text) is incomplete")
        }
        precondition(parsed.consumed == request.count, "our request was not fully parsed")
        precondition(parsed.request.target == url.target, "target changed: \(parsed.request.target)")
        let seenKey = try ServerHandshake.validateUpgrade(parsed.request)
        precondition(seenKey == key, "key changed: \(seenKey)")
        precondition(parsed.request.head.value(of: "Host") == url.hostHeader, "Host changed")
        precondition(parsed.request.head.fields.count == 6, "header fields injected through the URL")
      } catch {
        fatalError("our request for \(text) was refused: \(error)")
      }
    } catch {
      _ = "\(error)"
    }
  }
  return 0
}

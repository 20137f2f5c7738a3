import TickerPluginABI
import WebSocketClient
import WebSocketWire

// The plugin's C entry points (see `ticker_plugin_abi.h`). Built into libTickerURLSession.so,
// which the Linux ticker loads with dlopen only when it wants the URLSession engine, so that the
// native path never maps Foundation, FoundationNetworking or ICU. Public only to be exported.

/// The C callbacks and their context, carried across threads (the caller promises they may be
/// called from any thread).
// invariant: only called, never read through; after a failed connect, never called at all.
struct CallbackTarget: @unchecked Sendable {
  var callbacks: ticker_ws_callbacks
}

/// An opaque C pointer carried across threads.
// invariant: a call's `op`, never dereferenced here: handed back once, to that call's `done`.
struct OpaquePointer_: @unchecked Sendable {
  var raw: UnsafeMutableRawPointer?
}

/// What a handle points to.
final class PluginConnection: Sendable {
  let connection: URLSessionConnection
  init(_ connection: URLSessionConnection) { self.connection = connection }

  static func from(_ handle: UnsafeMutableRawPointer?) -> PluginConnection? {
    handle.map { Unmanaged<PluginConnection>.fromOpaque($0).takeUnretainedValue() }
  }
}

@_cdecl("ticker_urlsession_abi_version")
public func tickerURLSessionABIVersion() -> Int32 { TICKER_PLUGIN_ABI_VERSION }

@_cdecl("ticker_urlsession_probe")
public func tickerURLSessionProbe(_ op: UnsafeMutableRawPointer?, _ done: ticker_probe_done?) {
  let op = OpaquePointer_(raw: op)
  Task {
    let support = await URLSessionEngine.support()
    switch support {
    case .supported: done?(op.raw, 1, "")
    case .unsupported(let why): why.withCString { done?(op.raw, 0, $0) }
    }
  }
}

@_cdecl("ticker_urlsession_connect")
public func tickerURLSessionConnect(
  _ url: UnsafePointer<CChar>?, _ headerNames: UnsafePointer<UnsafePointer<CChar>?>?,
  _ headerValues: UnsafePointer<UnsafePointer<CChar>?>?, _ headerCount: Int64, _ connectTimeout: Double,
  _ maxMessageSize: Int64, _ callbacks: ticker_ws_callbacks, _ op: UnsafeMutableRawPointer?,
  _ done: ticker_connect_done?
) {
  let urlString = url.map { String(cString: $0) } ?? ""
  var headers: [(name: String, value: String)] = []
  if let headerNames, let headerValues, headerCount > 0 {
    for i in 0..<Int(headerCount) {
      guard let name = headerNames[i], let value = headerValues[i] else { continue }
      headers.append((String(cString: name), String(cString: value)))
    }
  }
  let options = ConnectOptions(
    headers: headers, connectTimeout: connectTimeout, maximumMessageSize: Int(clamping: maxMessageSize))
  let target = CallbackTarget(callbacks: callbacks)
  let gate = CallbackGate<(CloseStatus?, WebSocketError?)>()
  let reportEnd: @Sendable ((CloseStatus?, WebSocketError?)) -> Void = { end in
    let code = end.0.map { Int32($0.code.rawValue) } ?? -1
    let context = target.callbacks.context
    (end.0?.reason ?? "").withCString { reason in
      if let error = end.1 {
        PluginError(error).withCError { target.callbacks.on_end?(context, code, reason, $0) }
      } else {
        target.callbacks.on_end?(context, code, reason, nil)
      }
    }
  }
  let delivery = URLSessionConnection.Delivery.callbacks(
    message: { message in
      guard gate.beginMessage() else { return }
      let context = target.callbacks.context
      switch message {
      case .text(var text):
        text.withUTF8 { target.callbacks.on_message?(context, 1, $0.baseAddress, $0.count) }
      case .binary(let bytes):
        bytes.withUnsafeBufferPointer { target.callbacks.on_message?(context, 0, $0.baseAddress, $0.count) }
      }
      if let end = gate.endMessage() { reportEnd(end) }
    },
    end: { status, error in
      if let end = gate.end((status, error)) { reportEnd(end) }
    })
  let op = OpaquePointer_(raw: op)
  Task {
    do throws(WebSocketError) {
      let connection = try await URLSessionEngine.open(urlString, options: options, delivery: delivery)
      let handle = Unmanaged.passRetained(PluginConnection(connection)).toOpaque()
      done?(op.raw, handle, nil)
      if let end = gate.arm() { reportEnd(end) }
    } catch {
      gate.disarm()
      PluginError(error).withCError { done?(op.raw, nil, $0) }
    }
  }
}

@_cdecl("ticker_urlsession_send")
public func tickerURLSessionSend(
  _ handle: UnsafeMutableRawPointer?, _ isText: Int32, _ bytes: UnsafePointer<UInt8>?, _ length: Int64,
  _ op: UnsafeMutableRawPointer?, _ done: ticker_result_done?
) {
  let payload = bytes.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, length)))) } ?? []
  let message: WebSocketMessage =
    isText != 0 ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
  let op = OpaquePointer_(raw: op)
  guard let connection = PluginConnection.from(handle) else {
    PluginError(.notConnected).withCError { done?(op.raw, $0) }
    return
  }
  Task {
    do throws(WebSocketError) {
      try await connection.connection.send(message)
      done?(op.raw, nil)
    } catch {
      PluginError(error).withCError { done?(op.raw, $0) }
    }
  }
}

@_cdecl("ticker_urlsession_ping")
public func tickerURLSessionPing(
  _ handle: UnsafeMutableRawPointer?, _ op: UnsafeMutableRawPointer?, _ done: ticker_result_done?
) {
  let op = OpaquePointer_(raw: op)
  guard let connection = PluginConnection.from(handle) else {
    PluginError(.notConnected).withCError { done?(op.raw, $0) }
    return
  }
  Task {
    do throws(WebSocketError) {
      try await connection.connection.ping([])
      done?(op.raw, nil)
    } catch {
      PluginError(error).withCError { done?(op.raw, $0) }
    }
  }
}

@_cdecl("ticker_urlsession_close")
public func tickerURLSessionClose(
  _ handle: UnsafeMutableRawPointer?, _ code: Int32, _ reason: UnsafePointer<CChar>?, _ timeout: Double,
  _ op: UnsafeMutableRawPointer?, _ done: ticker_close_done?
) {
  let op = OpaquePointer_(raw: op)
  guard let connection = PluginConnection.from(handle) else {
    done?(op.raw)
    return
  }
  let status = CloseStatus(
    code: CloseCode(UInt16(clamping: code)), reason: reason.map { String(cString: $0) } ?? "")
  Task {
    await connection.connection.close(status, timeout: timeout)
    done?(op.raw)
  }
}

@_cdecl("ticker_urlsession_release")
public func tickerURLSessionRelease(_ handle: UnsafeMutableRawPointer?) {
  guard let handle else { return }
  Unmanaged<PluginConnection>.fromOpaque(handle).release()
}

/// Opens the byte stream under a WebSocket connection: TCP, then TLS for `wss`.
public enum TransportConnector {
  /// Connects to `url.host`/`url.port` and, when `url.isSecure`, performs the TLS handshake
  /// (verifying the certificate against `url.host`, trusting `options.caCertificateFile` in
  /// addition to the system store), all within `options.connectTimeout` seconds.
  public static func connect(url: WebSocketURL, options: ConnectOptions) throws(TransportError)
    -> any ByteStream
  {
    let deadline = Deadline(seconds: options.connectTimeout)
    let tcp = try TCPStream.connect(host: url.host, port: url.port, timeout: options.connectTimeout)
    guard url.isSecure else { return tcp }
    return try TLSStream(
      over: tcp, serverName: url.host, caCertificateFile: options.caCertificateFile,
      timeout: deadline.secondsLeft ?? .infinity)
  }
}

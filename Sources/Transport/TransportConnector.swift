/// Opens the byte stream under a protocol's connection: TCP, then TLS when `secure`.
public enum TransportConnector {
  /// Connects to `host`/`port` and, when `secure`, performs the TLS handshake (verifying the
  /// certificate against `host`, trusting `caCertificateFile` in addition to the system store),
  /// all within `timeout` seconds.
  public static func connect(
    host: String, port: Int, secure: Bool, caCertificateFile: String?, timeout: Double
  ) throws(TransportError) -> any ByteStream {
    let deadline = Deadline(seconds: timeout)
    let tcp = try TCPStream.connect(host: host, port: port, timeout: timeout)
    guard secure else { return tcp }
    return try TLSStream(
      over: tcp, serverName: host, caCertificateFile: caCertificateFile,
      timeout: deadline.secondsLeft ?? .infinity)
  }
}

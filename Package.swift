// swift-tools-version: 6.0
import PackageDescription

// One module per concern (docs/design.md has the table, the dependency order and the concurrency
// model):
//   TickerSupport     channels, threads, timers and executors, the POSIX layer, the descriptor
//                     writer, the whole-file reader, Base64, hex, percent-encoding, dates, text
//                     escaping and redaction
//   JSON              the exact-number JSON parser and the byte scanner of the decoders' fast paths
//   Transport         TCP, TLS (OpenSSL through COpenSSLShim), the resolver, deadlines, backoff, the
//                     listener and the event loop: what every protocol stands on
//   WebSocketWire     RFC 6455 and 7692 as pure code (frames, handshake, permessage-deflate through
//                     CZlibShim) and the message, URL and close-code types
//   WebSocketClient   the engine protocol and the native engine; MessageSource and the session that
//                     keeps any source alive
//   WebSocketServer   the server role: upgrade, the frame reader and writer
//   NATS              the NATS client protocol on the transport
//   Monitoring        what operators watch a long run with: the metrics and health endpoint (HTTP
//                     on the transport's event loop), the Prometheus text format, the process's own
//                     figures from /proc, and systemd's notification protocol
//   URLSessionEngine  the URLSessionWebSocketTask engine; the only module that links FoundationNetworking.
//                     On Linux the ticker does not link it: it is the plugin libTickerURLSession.so,
//                     loaded with dlopen only when the URLSession engine is wanted (C ABI in
//                     TickerPluginABI; the ticker side is EnginePlugin), so the native path never
//                     maps Foundation, FoundationNetworking or ICU. macOS links it directly.
//   Venues            Provider, Quote, Price; a folder per venue: decoding, encoding, limits
//   FeedRuntime       the feed: machine, shell, quote bus, subscriptions, debounce, alerts, control
//   Outputs           formatters, the board, stdout, diagnostics, the feeds' metrics and health
//   Recording         the one recording format: recorder, reader, replay, server scripts
//   NATSBridge        NATS as the feed sees it: the publish output and the source
//   Gateway           `ticker serve`: admission, fan-out, the connections' event loop
//   Emulators         FeedServer and the venue emulators, the demo sessions, benchmark load
//   CLI               settings declared once, config, help, completions, exit codes
//   ticker            main and one small type per command
//   feedserve         FeedServer as a command, for benchmarks and manual tests
//   TestSupport       (tests only, in Tests/TestSupport) children started with posix_spawn (Foundation's
//                     Process.run() crashes test runs on Linux) and the one bootstrap that installs
//                     the test peers (`.requires(...)`)
let package = Package(
  name: "ticker",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "ticker", targets: ["ticker"]),
    .library(name: "WebSocketClient", targets: ["WebSocketClient", "URLSessionEngine"]),
    // The URLSession engine plugin the Linux ticker loads from its own directory.
    .library(name: "TickerURLSession", type: .dynamic, targets: ["URLSessionEngine"]),
  ],
  targets: [
    // OpenSSL is loaded with dlopen when the first wss:// connection needs it (see shim.c), so
    // it is not linked; its headers (libssl-dev) are needed to build.
    .target(name: "COpenSSLShim"),
    // zlib for permessage-deflate (RFC 7692): linked (zlib1g-dev to build; the SDK's on macOS).
    .target(name: "CZlibShim", linkerSettings: [.linkedLibrary("z")]),
    // glibc's mallopt for the ticker's start-up (Linux only).
    .target(name: "CMallocShim"),
    .target(name: "TickerSupport"),
    .target(name: "JSON", dependencies: ["TickerSupport"]),
    .target(
      name: "Transport",
      dependencies: ["TickerSupport", .target(name: "COpenSSLShim", condition: .when(platforms: [.linux]))]),
    .target(name: "WebSocketWire", dependencies: ["TickerSupport", "CZlibShim"]),
    .target(name: "WebSocketClient", dependencies: ["TickerSupport", "Transport", "WebSocketWire"]),
    .target(name: "WebSocketServer", dependencies: ["TickerSupport", "Transport", "WebSocketWire"]),
    .target(name: "NATS", dependencies: ["TickerSupport", "JSON", "Transport"]),
    .target(name: "Monitoring", dependencies: ["TickerSupport", "Transport", "WebSocketWire"]),
    .target(name: "TickerPluginABI"),
    .target(
      name: "URLSessionEngine",
      dependencies: ["TickerSupport", "Transport", "WebSocketWire", "WebSocketClient", "TickerPluginABI"]),
    .target(
      name: "EnginePlugin",
      dependencies: ["TickerSupport", "Transport", "WebSocketWire", "WebSocketClient", "TickerPluginABI"]),
    .target(name: "Venues", dependencies: ["TickerSupport", "JSON", "WebSocketWire"]),
    .target(
      name: "FeedRuntime",
      dependencies: ["TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "Venues"]),
    .target(
      name: "Outputs",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "Venues", "FeedRuntime",
        "Monitoring",
      ]),
    .target(
      name: "Recording",
      dependencies: ["TickerSupport", "JSON", "WebSocketWire", "WebSocketClient", "Venues", "FeedRuntime"]),
    .target(
      name: "NATSBridge",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "NATS", "Venues",
        "FeedRuntime",
        "Outputs",
      ]),
    .target(
      name: "Gateway",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketServer", "Venues", "FeedRuntime",
      ]),
    .target(
      name: "CLI",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "Venues", "FeedRuntime",
        "Outputs",
        "Recording", "NATS", "NATSBridge",
      ]),
    .target(
      name: "Emulators",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketServer", "Venues", "Recording",
      ]),
    .executableTarget(
      name: "feedserve",
      dependencies: [
        "TickerSupport", "JSON", "Venues", "Emulators", "Recording", "Transport", "WebSocketWire",
        "WebSocketServer",
      ]),
    .executableTarget(
      name: "hotpath",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "Venues", "FeedRuntime",
        "Outputs",
        .target(name: "CMallocShim", condition: .when(platforms: [.linux])),
      ],
      path: "Benchmarks/HotPath"),
    .executableTarget(
      name: "ticker",
      dependencies: [
        "TickerSupport", "JSON", "Transport", "WebSocketWire", "WebSocketClient", "WebSocketServer", "Venues",
        "FeedRuntime", "Outputs", "Recording", "Gateway", "NATS", "NATSBridge", "CLI", "Emulators",
        "EnginePlugin", "Monitoring",
        .target(name: "URLSessionEngine", condition: .when(platforms: [.macOS])),
        .target(name: "CMallocShim", condition: .when(platforms: [.linux])),
      ]
    ),
    // Tests: one target per module, the process tests of the built binary in EndToEndTests.
    .target(
      name: "TestSupport",
      dependencies: [
        "Transport", "WebSocketWire",
        "TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "Recording", "Emulators",
      ],
      path: "Tests/TestSupport"),
    .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
    .testTarget(name: "TickerSupportTests", dependencies: ["TickerSupport", "TestSupport"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(
      name: "MonitoringTests",
      dependencies: ["TickerSupport", "Transport", "WebSocketWire", "Monitoring", "TestSupport"]),
    .testTarget(
      name: "WebSocketClientTests",
      dependencies: [
        "Transport", "WebSocketWire", "TickerSupport", "WebSocketClient", "WebSocketServer", "Emulators",
        "TestSupport",
      ]),
    .testTarget(
      name: "WebSocketServerTests",
      dependencies: [
        "Transport", "WebSocketWire", "TickerSupport", "WebSocketClient", "WebSocketServer", "TestSupport",
      ]),
    .testTarget(
      name: "VenuesTests",
      dependencies: ["WebSocketWire", "TickerSupport", "JSON", "WebSocketClient", "Venues", "TestSupport"]),
    .testTarget(
      name: "FeedRuntimeTests",
      dependencies: [
        "Transport", "WebSocketWire",
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs", "Recording",
        "Emulators",
        "TestSupport",
      ]),
    .testTarget(
      name: "OutputsTests",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs", "Monitoring",
        "TestSupport",
      ]),
    .testTarget(
      name: "RecordingTests",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Recording", "TestSupport",
      ]),
    .testTarget(
      name: "GatewayTests",
      dependencies: [
        "WebSocketWire",
        "TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "FeedRuntime", "Gateway",
        "TestSupport",
      ]),
    .testTarget(
      name: "NATSTests",
      dependencies: [
        "NATSBridge", "Transport",
        "TickerSupport", "JSON", "Venues", "FeedRuntime", "Outputs", "NATS", "Emulators", "TestSupport",
      ]),
    // Every venue of the catalog against its emulation (the conformance suite).
    .testTarget(
      name: "VenueConformanceTests",
      dependencies: [
        "Transport",
        "TickerSupport", "WebSocketClient", "Venues", "FeedRuntime", "Recording", "Emulators", "TestSupport",
      ]),
    .testTarget(
      name: "EmulatorsTests",
      dependencies: [
        "Transport", "WebSocketWire",
        "TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "FeedRuntime", "Recording",
        "Emulators", "TestSupport",
      ]),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "WebSocketWire", "NATSBridge",
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs", "Recording", "NATS",
        "CLI",
        "TestSupport",
      ]),
    .testTarget(
      name: "EnginePluginTests",
      dependencies: ["WebSocketWire", "TickerSupport", "WebSocketClient", "EnginePlugin", "TestSupport"]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "Transport", "WebSocketWire", "NATSBridge",
        "TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "URLSessionEngine", "EnginePlugin",
        "Venues",
        "FeedRuntime", "Outputs", "Recording", "Gateway", "NATS", "CLI", "Emulators", "Monitoring",
        "TestSupport",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

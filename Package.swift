// swift-tools-version: 6.0
import PackageDescription

// Module split (see README "Design"):
//   WebSocketClient   engine protocol + native RFC 6455 engine (permessage-deflate through zlib, in
//                     CZlibShim); FoundationEssentials + Dispatch only
//   URLSessionEngine  URLSessionWebSocketTask engine; the only module that links FoundationNetworking.
//                     On Linux the ticker does not link it: it is the plugin libTickerURLSession.so,
//                     loaded with dlopen only when the URLSession engine is wanted (C ABI in
//                     TickerPluginABI; the ticker side is EnginePlugin), so the native path never
//                     maps Foundation, FoundationNetworking or ICU. macOS links it directly.
//   PriceFeed         providers, exact-price JSON decoding, debounce/dedupe pipeline, output, config
//   FeedCore          the runtime: subscriptions, the feed machine and its shell, the quote bus and
//                     outputs, control lines, reports
//   NATSPublisher     `--publish`: the NATS client protocol spoken directly (pure parser and
//                     commands, subject escaping, a drop-oldest buffer, a reconnecting publisher)
//   FeedServer        a small real WebSocket server that replays recorded sessions (demo, tests)
//   ticker            the command-line tool
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
      name: "WebSocketClient",
      dependencies: [
        "TickerSupport", "CZlibShim", .target(name: "COpenSSLShim", condition: .when(platforms: [.linux])),
      ]
    ),
    .target(name: "WebSocketServer", dependencies: ["TickerSupport", "WebSocketClient"]),
    .target(name: "TickerPluginABI"),
    .target(name: "URLSessionEngine", dependencies: ["TickerSupport", "WebSocketClient", "TickerPluginABI"]),
    .target(name: "EnginePlugin", dependencies: ["TickerSupport", "WebSocketClient", "TickerPluginABI"]),
    .target(name: "Venues", dependencies: ["TickerSupport", "JSON", "WebSocketClient"]),
    .target(name: "FeedRuntime", dependencies: ["TickerSupport", "JSON", "WebSocketClient", "Venues"]),
    .target(
      name: "Outputs", dependencies: ["TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime"]),
    .target(
      name: "Recording", dependencies: ["TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime"]),
    .target(
      name: "NATS",
      dependencies: ["TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs"]),
    .target(
      name: "Gateway",
      dependencies: ["TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "FeedRuntime"]),
    .target(
      name: "CLI",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs", "Recording",
        "NATS",
      ]),
    .target(
      name: "Emulators",
      dependencies: ["TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "Recording"]),
    .executableTarget(
      name: "feedserve",
      dependencies: ["TickerSupport", "Emulators", "Recording", "WebSocketClient", "WebSocketServer"]),
    .executableTarget(
      name: "hotpath",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs",
        .target(name: "CMallocShim", condition: .when(platforms: [.linux])),
      ],
      path: "Benchmarks/HotPath"),
    .executableTarget(
      name: "ticker",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "FeedRuntime", "Outputs",
        "Recording", "Gateway", "NATS", "CLI", "Emulators", "EnginePlugin",
        .target(name: "URLSessionEngine", condition: .when(platforms: [.macOS])),
        .target(name: "CMallocShim", condition: .when(platforms: [.linux])),
      ]
    ),
    .target(name: "TestSupport", dependencies: ["TickerSupport"], path: "Tests/TestSupport"),
    .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
    .testTarget(
      name: "WebSocketClientTests",
      dependencies: ["TickerSupport", "WebSocketClient", "WebSocketServer", "Emulators", "TestSupport"]),
    .testTarget(
      name: "PriceFeedTests",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "Venues", "FeedRuntime", "Outputs", "Recording", "CLI",
      ]),
    .testTarget(
      name: "NATSTests",
      dependencies: ["TickerSupport", "NATS", "Venues", "FeedRuntime", "Outputs", "Emulators"]),
    .testTarget(
      name: "FeedCoreTests",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "WebSocketServer", "Venues", "FeedRuntime", "Outputs",
        "Recording", "Gateway", "Emulators",
      ]),
    .testTarget(
      name: "TickerTests",
      dependencies: [
        "TickerSupport", "JSON", "WebSocketClient", "URLSessionEngine", "Venues", "FeedRuntime", "Outputs",
        "Recording", "Gateway", "NATS", "CLI", "Emulators", "EnginePlugin", "TestSupport", "WebSocketServer",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

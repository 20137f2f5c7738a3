// swift-tools-version: 6.0
import PackageDescription

// Module split (see README "Design"):
//   WebSocketClient   engine protocol + native RFC 6455 engine; FoundationEssentials + Dispatch only
//   URLSessionEngine  URLSessionWebSocketTask engine; the only module that links FoundationNetworking
//   PriceFeed         providers, exact-price JSON decoding, debounce/dedupe pipeline, output, config
//   FeedServer        a small real WebSocket server that replays recorded sessions (demo, tests)
//   ticker            the command-line tool
//   feedserve         FeedServer as a command, for benchmarks and manual tests
let package = Package(
  name: "ticker",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "ticker", targets: ["ticker"]),
    .library(name: "WebSocketClient", targets: ["WebSocketClient", "URLSessionEngine"]),
  ],
  targets: [
    .target(
      name: "COpenSSLShim",
      linkerSettings: [
        .linkedLibrary("ssl", .when(platforms: [.linux])),
        .linkedLibrary("crypto", .when(platforms: [.linux])),
      ]
    ),
    .target(
      name: "WebSocketClient",
      dependencies: [.target(name: "COpenSSLShim", condition: .when(platforms: [.linux]))]
    ),
    .target(name: "URLSessionEngine", dependencies: ["WebSocketClient"]),
    .target(name: "PriceFeed", dependencies: ["WebSocketClient"]),
    .target(name: "FeedServer", dependencies: ["WebSocketClient", "PriceFeed"]),
    .executableTarget(name: "feedserve", dependencies: ["FeedServer", "WebSocketClient"]),
    .executableTarget(
      name: "hotpath", dependencies: ["PriceFeed", "WebSocketClient"], path: "Benchmarks/HotPath"),
    .executableTarget(
      name: "ticker",
      dependencies: ["WebSocketClient", "URLSessionEngine", "PriceFeed", "FeedServer"]
    ),
    .testTarget(name: "WebSocketClientTests", dependencies: ["WebSocketClient", "FeedServer"]),
    .testTarget(name: "PriceFeedTests", dependencies: ["PriceFeed"]),
    .testTarget(
      name: "TickerTests",
      dependencies: ["WebSocketClient", "URLSessionEngine", "PriceFeed", "FeedServer"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

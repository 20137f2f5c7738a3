import CLI

enum MetricsEndpointPending { static func refusal(_ config: TickerConfig) -> String? { nil } }

// Header-only: the plugin ABI lives in include/ticker_plugin_abi.h.

// The C ABI between the `ticker` executable and its URLSession engine plugin
// (libTickerURLSession.so, loaded with dlopen only when the URLSession engine is wanted).
//
// Both sides are Swift, but each holds its own copy of the WebSocketClient module's types, so
// nothing Swift crosses this line: only C scalars, C strings (UTF-8, NUL-terminated) and byte
// buffers. Every pointer handed to a callback is borrowed for the duration of that call.
// Every operation is asynchronous: it returns at once and reports through its `done` callback,
// which may run on any thread.
#ifndef TICKER_PLUGIN_ABI_H
#define TICKER_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

/// Bumped on any incompatible change; the ticker refuses a plugin with another version.
#define TICKER_PLUGIN_ABI_VERSION 2

/// What went wrong: the cases of the engine's `WebSocketError` that URLSession produces.
typedef enum {
  TICKER_WS_ERROR_OTHER = 0,            // text
  TICKER_WS_ERROR_UNSUPPORTED = 1,      // text (e.g. NSURLError -1002)
  TICKER_WS_ERROR_HTTP_STATUS = 2,      // code = HTTP status, text = reason phrase, retry_after
  TICKER_WS_ERROR_TIMEOUT = 3,          // text
  TICKER_WS_ERROR_RESOLVE = 4,          // host, text
  TICKER_WS_ERROR_CERTIFICATE = 5,      // code, text
  TICKER_WS_ERROR_TLS = 6,              // text
  TICKER_WS_ERROR_INVALID_URL = 7,      // text
  TICKER_WS_ERROR_ABNORMAL_CLOSURE = 8,
  TICKER_WS_ERROR_NOT_CONNECTED = 9,
  TICKER_WS_ERROR_CONNECT = 10,         // host, code = port, retry_after = errno (since version 2)
} ticker_ws_error_kind;

typedef struct {
  int32_t kind;         // a ticker_ws_error_kind
  int64_t code;         // HTTP status or certificate verify code; 0 otherwise
  int32_t retry_after;  // Retry-After seconds for HTTP_STATUS; -1 when absent
  const char *text;     // never NULL
  const char *host;     // never NULL ("" when not relevant)
} ticker_ws_error;

/// Where an open connection reports. `context` is passed back unchanged.
/// `on_message` may block (that is the backpressure: the plugin reads no further meanwhile); it
/// is never called on a Swift concurrency pool thread. `on_end` runs exactly once, after every
/// `on_message`, and only for a connection whose connect succeeded: a peer close status
/// (`close_code` >= 0, `reason`) or -1 for none, and `error` (NULL for a clean end). No callback
/// follows it, so the caller may free `context` there.
typedef struct {
  void *context;
  void (*on_message)(void *context, int32_t is_text, const uint8_t *bytes, size_t length);
  void (*on_end)(void *context, int32_t close_code, const char *reason, const ticker_ws_error *error);
} ticker_ws_callbacks;

typedef void (*ticker_probe_done)(void *op, int32_t supported, const char *reason);
/// `handle` is non-NULL on success (release it with ticker_urlsession_release), else `error`.
typedef void (*ticker_connect_done)(void *op, void *handle, const ticker_ws_error *error);
/// `error` is NULL on success.
typedef void (*ticker_result_done)(void *op, const ticker_ws_error *error);
typedef void (*ticker_close_done)(void *op);

// The exported functions (looked up with dlsym under these names):
//   int32_t ticker_urlsession_abi_version(void);
//   void ticker_urlsession_probe(void *op, ticker_probe_done done);
//   void ticker_urlsession_connect(const char *url, const char *const *header_names,
//       const char *const *header_values, int64_t header_count, double connect_timeout,
//       int64_t max_message_size, ticker_ws_callbacks callbacks, void *op, ticker_connect_done done);
//   void ticker_urlsession_send(void *handle, int32_t is_text, const uint8_t *bytes, int64_t length,
//       void *op, ticker_result_done done);
//   void ticker_urlsession_ping(void *handle, void *op, ticker_result_done done);
//   void ticker_urlsession_close(void *handle, int32_t code, const char *reason, double timeout,
//       void *op, ticker_close_done done);
//   void ticker_urlsession_release(void *handle);
typedef int32_t (*ticker_urlsession_abi_version_fn)(void);
typedef void (*ticker_urlsession_probe_fn)(void *op, ticker_probe_done done);
typedef void (*ticker_urlsession_connect_fn)(
    const char *url, const char *const *header_names, const char *const *header_values,
    int64_t header_count, double connect_timeout, int64_t max_message_size,
    ticker_ws_callbacks callbacks, void *op, ticker_connect_done done);
typedef void (*ticker_urlsession_send_fn)(
    void *handle, int32_t is_text, const uint8_t *bytes, int64_t length, void *op,
    ticker_result_done done);
typedef void (*ticker_urlsession_ping_fn)(void *handle, void *op, ticker_result_done done);
typedef void (*ticker_urlsession_close_fn)(
    void *handle, int32_t code, const char *reason, double timeout, void *op,
    ticker_close_done done);
typedef void (*ticker_urlsession_release_fn)(void *handle);

#endif

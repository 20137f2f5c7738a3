// Re-provides, for LD_PRELOAD, the WebSocket part of swift-corelibs-foundation's C shim
// (_CFURLSessionInterface) that the toolchain's libFoundationNetworking.so was built without.
//
// That library reaches each of these functions through its PLT and each flag constant through
// its GOT, so a preloaded definition wins over its own stub (which says "unsupported" and -1).
// Compiled against libcurl >= 7.86 headers; whether WebSockets then work is up to the libcurl
// loaded at run time (its protocol list must name ws/wss), exactly as in a Foundation built with
// the API. Nothing else is changed: every bug above this layer stays as it is, which is the
// point (the tests measure the stock library).
//
// The CF types, as declared by CFURLSessionInterface.h at swift-6.3.1-RELEASE.
#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#if LIBCURL_VERSION_NUM < 0x075600
#error "libcurl >= 7.86 headers are needed (curl_ws_* API)"
#endif

typedef struct { int value; } CFURLSessionEasyCode;
typedef struct { int value; } CFURLSessionWebSocketsOption;
typedef struct {
  int age;
  unsigned flags;
  long long offset;
  long long bytesLeft;
} CFURLSessionWebSocketsFrame;

#define EXPORT __attribute__((visibility("default")))

EXPORT const unsigned CFURLSessionWebSocketsText = CURLWS_TEXT;
EXPORT const unsigned CFURLSessionWebSocketsBinary = CURLWS_BINARY;
EXPORT const unsigned CFURLSessionWebSocketsCont = CURLWS_CONT;
EXPORT const unsigned CFURLSessionWebSocketsClose = CURLWS_CLOSE;
EXPORT const unsigned CFURLSessionWebSocketsPing = CURLWS_PING;
EXPORT const unsigned CFURLSessionWebSocketsPong = CURLWS_PONG;
EXPORT const CFURLSessionWebSocketsOption CFURLSessionWebSocketsRawMode = {CURLWS_RAW_MODE};

/// True when the libcurl loaded now lists ws or wss among its protocols (layer 2).
EXPORT bool CFURLSessionWebSocketsSupported(void) {
  const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
  if (info == NULL || info->protocols == NULL) return false;
  for (const char *const *p = info->protocols; *p != NULL; p++) {
    if (strcmp(*p, "ws") == 0 || strcmp(*p, "wss") == 0) return true;
  }
  return false;
}

static CFURLSessionWebSocketsFrame cf_frame(const struct curl_ws_frame *frame) {
  CFURLSessionWebSocketsFrame out = {0, 0, 0, 0};
  if (frame != NULL) {
    out.age = frame->age;
    out.flags = (unsigned)frame->flags;
    out.offset = (long long)frame->offset;
    out.bytesLeft = (long long)frame->bytesleft;
  }
  return out;
}

EXPORT CFURLSessionEasyCode CFURLSessionEasyHandleWebSocketsReceive(
    CURL *handle, char *data, size_t length, size_t *received, CFURLSessionWebSocketsFrame *meta) {
  const struct curl_ws_frame *frame = NULL;
  CFURLSessionEasyCode code = {(int)curl_ws_recv(handle, data, length, received, &frame)};
  if (meta != NULL) *meta = cf_frame(frame);
  return code;
}

EXPORT CFURLSessionEasyCode CFURLSessionEasyHandleWebSocketsSend(
    CURL *handle, const char *data, size_t length, size_t *sent, long long frameSize, unsigned flags) {
  CFURLSessionEasyCode code = {
      (int)curl_ws_send(handle, data, length, sent, (curl_off_t)frameSize, flags)};
  return code;
}

/// Upstream returns libcurl's own frame pointer cast to the CF type; the CF struct's fields are
/// copied here instead, into storage of this thread (valid until its next call, as curl's is).
EXPORT CFURLSessionWebSocketsFrame *CFURLSessionEasyHandleWebSocketsMetadata(CURL *handle) {
  // The Swift caller takes the pointer as non-null: no frame gives zeroes.
  static __thread CFURLSessionWebSocketsFrame copy;
  copy = cf_frame(curl_ws_meta(handle));
  return &copy;
}

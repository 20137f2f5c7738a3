#ifndef CZLIBSHIM_H
#define CZLIBSHIM_H

// zlib for permessage-deflate (RFC 7692) in the native WebSocket engine, on every platform: the
// system's library (Debian's zlib1g-dev to build, the SDK's on macOS), linked. Swift cannot call
// zlib's function-like macros (`inflateInit2`, `deflateInit2`), so they are wrapped here.
#include <zlib.h>

/// A raw DEFLATE inflater (no zlib header) with a window of 2^window_bits bytes.
static inline int shim_inflate_init_raw(z_stream *stream, int window_bits) {
  return inflateInit2(stream, -window_bits);
}

/// A raw DEFLATE deflater (no zlib header).
static inline int shim_deflate_init_raw(z_stream *stream, int level, int window_bits, int memory_level) {
  return deflateInit2(stream, level, Z_DEFLATED, -window_bits, memory_level, Z_DEFAULT_STRATEGY);
}

#endif

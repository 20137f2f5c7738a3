#ifndef CMALLOCSHIM_H
#define CMALLOCSHIM_H

// glibc's <malloc.h>, which Swift's Glibc module does not export, for the ticker's start-up
// (`mallopt`). Called directly rather than looked up with dlsym: in a static executable dlsym
// finds no libc symbol, and the settings silently did not apply there.
#if defined(__linux__)
#include <malloc.h>

/// One malloc arena for all threads, and a fixed 128 KiB threshold for blocks that get their own
/// mapping (see Sources/ticker/main.swift for why). Returns 1 when glibc took both.
static inline int ticker_malloc_defaults(void) {
  return mallopt(M_ARENA_MAX, 1) & mallopt(M_MMAP_THRESHOLD, 128 << 10);
}
#endif

#endif

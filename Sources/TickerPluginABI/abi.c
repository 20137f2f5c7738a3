// The plugin ABI itself is header-only (include/ticker_plugin_abi.h); this file holds the libc
// calls Swift's Glibc module does not expose.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

#include "ticker_loaded_file.h"

const char *ticker_loaded_file(const void *address) {
  Dl_info info;
  if (address == NULL || dladdr(address, &info) == 0) return NULL;
  return info.dli_fname;
}

int ticker_is_static_executable(void) {
#if defined(__linux__)
  return getauxval(AT_BASE) == 0;
#else
  return 0;
#endif
}

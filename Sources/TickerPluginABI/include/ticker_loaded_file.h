#ifndef TICKER_LOADED_FILE_H
#define TICKER_LOADED_FILE_H

/// The path of the loaded file (executable or shared library) that holds `address`, as
/// `dladdr` reports it; NULL when none does. Owned by the dynamic loader.
const char *ticker_loaded_file(const void *address);

/// 1 when this process is a static executable: it has no program interpreter, so the kernel
/// passed no interpreter base (`getauxval(AT_BASE)` is 0). 0 otherwise, and off Linux.
int ticker_is_static_executable(void);

#endif

#ifndef TICKER_LOADED_FILE_H
#define TICKER_LOADED_FILE_H

/// The path of the loaded file (executable or shared library) that holds `address`, as
/// `dladdr` reports it; NULL when none does. Owned by the dynamic loader.
const char *ticker_loaded_file(const void *address);

#endif

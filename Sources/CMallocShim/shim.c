// Everything is in include/CMallocShim.h; SwiftPM needs one source file per C target.
#include "CMallocShim.h"

// Everything is in include/CZlibShim.h; SwiftPM needs one source file per C target.
#include "CZlibShim.h"

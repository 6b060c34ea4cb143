/* begin.h — opens each file of the x86-64-v3 copy of the engine (../cpu.h):
 * from here on GCC may use that level's instructions, and the copied file's
 * global names are the copy's own (names.h). */
#define FP_V3_COPY 1
#include "../cpu.h"
#if FP_HAS_V3
#pragma GCC target("arch=x86-64-v3")
#include "names.h"
#endif

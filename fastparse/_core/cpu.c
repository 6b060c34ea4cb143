/* cpu.c — which copy of the engine runs (cpu.h) */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

int fp_cpu_v3 = 0;

const char *
fp_cpu_choose(void)
{
#if FP_HAS_V3
    const char *forced = getenv("FASTPARSE_CPU");
    __builtin_cpu_init();
    fp_cpu_v3 = !(forced && strcmp(forced, "generic") == 0) && __builtin_cpu_supports("x86-64-v3");
#endif
    return fp_cpu_v3 ? "x86-64-v3" : "generic";
}

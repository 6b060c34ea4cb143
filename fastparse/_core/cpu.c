/* cpu.c — which copy of the engine runs (cpu.h) */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "fp.h"

int fp_cpu_v3 = 0;

const char *
fp_cpu_choose(void)
{
#if FP_HAS_V3
    extern __typeof__(fp_parse) v3_fp_parse __attribute__((weak));   /* NULL: the copy is not linked in */
    const char *forced = getenv("FASTPARSE_CPU");
    __builtin_cpu_init();
    fp_cpu_v3 = v3_fp_parse && !(forced && strcmp(forced, "generic") == 0) &&
                __builtin_cpu_supports("x86-64-v3");
#endif
    return fp_cpu_v3 ? "x86-64-v3" : "generic";
}

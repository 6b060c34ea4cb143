/* cpu.h — the engine in two copies, the second compiled for x86-64-v3 (AVX2,
 * BMI1/2, FMA, MOVBE: most x86-64 CPUs since 2013), the first for any x86-64.
 * The parse and the selector runs start with FP_V3_DISPATCH, which hands the
 * call to the second copy when the CPU has those instructions (cpu.c decides
 * once, at import). Both copies are the same source: x86_64_v3/ holds a file
 * per engine file that includes it under GCC's target pragma, with its global
 * names renamed v3_* (x86_64_v3/names.h, tools/gen_v3_copy.py). With VEX
 * encodings and BMI the css task took 2.4% less time, the parse 2.2%
 * (tools/ab_builds.py, median page); the instruction counts hardly moved.
 * GCC 12+ on x86-64 only (the pragma, and __builtin_cpu_supports' level
 * names); elsewhere the one copy is the engine. */
#ifndef FP_CPU_H
#define FP_CPU_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#define FP_HAS_V3 1
#else
#define FP_HAS_V3 0
#endif

/* 1 when the calls go to the x86-64-v3 copy; set once by fp_cpu_choose */
extern int fp_cpu_v3;

/* Choose the copy: the x86-64-v3 one when it is linked in and the CPU (and
 * the OS, for the AVX state) supports it, unless FASTPARSE_CPU=generic.
 * Returns its name. */
const char *fp_cpu_choose(void);

#if FP_HAS_V3 && !defined(FP_V3_COPY)
/* in the generic copy of fn(args): return the x86-64-v3 copy's answer. The
 * reference is weak: a program built from the engine's files alone (the
 * fuzzers, tools/recovery_cost.py) links without the copy, and fp_cpu_choose
 * never chooses it there. */
#define FP_V3_DISPATCH(fn, ...)                                 \
    do {                                                        \
        extern __typeof__(fn) v3_##fn __attribute__((weak));    \
        if (fp_cpu_v3)                                          \
            return v3_##fn(__VA_ARGS__);                        \
    } while (0)
/* the same, in a function returning void */
#define FP_V3_DISPATCH_VOID(fn, ...)                            \
    do {                                                        \
        extern __typeof__(fn) v3_##fn __attribute__((weak));    \
        if (fp_cpu_v3) {                                        \
            v3_##fn(__VA_ARGS__);                               \
            return;                                             \
        }                                                       \
    } while (0)
#else
#define FP_V3_DISPATCH(fn, ...) ((void)0)
#define FP_V3_DISPATCH_VOID(fn, ...) ((void)0)
#endif

#endif

// Checks of the kernels' preconditions, on in a checked build and compiled
// out otherwise (setup.py: SPATIAL_HASH_DEBUG=1 defines SPATIAL_HASH_DEBUG).
// SH_EXPECT states what a kernel's caller must hand it, at each entry, in
// constant time; SH_VALIDATE what a whole input must be, which may cost a pass
// over it. A failed check names itself and aborts: it is a defect of the
// caller (the Cython front), never a user's bad input, which the front
// refuses with an error before any kernel runs.
#pragma once
#include <cstdio>
#include <cstdlib>

namespace spatial_hash {

[[noreturn]] inline void failed_check(const char* what, const char* file, int line) noexcept {
    std::fprintf(stderr, "spatial_hash: check failed: %s (%s:%d)\n", what, file, line);
    std::abort();
}

}  // namespace spatial_hash

#ifdef SPATIAL_HASH_DEBUG
#define SH_CHECKED 1
#define SH_EXPECT(condition) \
    ((condition) ? (void)0 : ::spatial_hash::failed_check(#condition, __FILE__, __LINE__))
#else
#define SH_CHECKED 0
#define SH_EXPECT(condition) ((void)0)
#endif
// A check over a whole input: `loop` runs only in a checked build.
#define SH_VALIDATE(loop) \
    do { if (SH_CHECKED) { loop } } while (0)

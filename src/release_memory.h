// Hands the heap pages the engine has freed back to the system (glibc's
// malloc_trim()): after an entry point drops large buffers (a forest's
// trees once copied to R, a quantile forest's index and its out-of-bag
// lists), the freed pages would otherwise stay resident, and each later
// stage of a fit (quantile forest, conformal calibration, prediction) would
// start from the peak of the one before it. No effect on any result.
#ifndef SVFOREST_RELEASE_MEMORY_H
#define SVFOREST_RELEASE_MEMORY_H

#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

inline void release_free_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

#endif

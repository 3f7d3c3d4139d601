#ifndef WALLETWATCH_MALLOC_TUNING_H
#define WALLETWATCH_MALLOC_TUNING_H
#include <malloc.h>

// glibc's <malloc.h> is not part of Swift's Glibc module: this wrapper makes mallopt callable.

/// Fixes glibc's mmap threshold at `bytes` (which also stops it from rising on its own):
/// blocks of that size or more are mapped separately and unmapped when freed.
/// Returns 1 on success, 0 on error.
static inline int walletwatch_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

#endif

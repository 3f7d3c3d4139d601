#ifndef WALLETWATCH_XXHASH_H
#define WALLETWATCH_XXHASH_H
// xxHash's reference library (libxxhash): XXH3, the digest of a response body as it arrives.
#include <xxhash.h>

#if defined(__x86_64__)
// The library's x86 entry points choose SSE2, AVX2 or AVX-512 by the CPU they run on; its plain
// XXH3_64bits_update is the SSE2 code every x86-64 has, about three times slower here.
#define XXH_DISPATCH_DISABLE_REPLACE
#include <xxh_x86dispatch.h>
static inline XXH_errorcode walletwatch_xxh3_update(XXH3_state_t *state, const void *input, size_t length) {
    return XXH3_64bits_update_dispatch(state, input, length);
}
#else
// Elsewhere (arm64: NEON) the library's build already uses the CPU's vector unit.
static inline XXH_errorcode walletwatch_xxh3_update(XXH3_state_t *state, const void *input, size_t length) {
    return XXH3_64bits_update(state, input, length);
}
#endif

#endif

#include <secp256k1.h>
// x-only public keys and the keypair tweak that BIP341's taproot_tweak_pubkey needs.
#include <secp256k1_extrakeys.h>

// SECP256K1_CONTEXT_NONE, SECP256K1_EC_COMPRESSED and SECP256K1_EC_UNCOMPRESSED are macros
// built from casts and shifts, which Swift does not import. Each wrapper below hands one over
// with the type its function takes.

/// The flags for a context (since 0.2.0 one context serves every operation; VERIFY is deprecated).
static inline unsigned int csecp256k1_context_none(void) {
    return SECP256K1_CONTEXT_NONE;
}

/// The serialization flag for 33-byte compressed public keys.
static inline unsigned int csecp256k1_ec_compressed(void) {
    return SECP256K1_EC_COMPRESSED;
}

/// The serialization flag for 65-byte uncompressed public keys.
static inline unsigned int csecp256k1_ec_uncompressed(void) {
    return SECP256K1_EC_UNCOMPRESSED;
}

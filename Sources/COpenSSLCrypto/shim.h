#include <openssl/evp.h>

// RIPEMD-160 for HASH160 (addresses, BIP32 fingerprints). swift-crypto has no RIPEMD-160, and
// OpenSSL 3's default provider still serves it, so one call to EVP_Digest is all that is needed.

/// RIPEMD-160 of `length` bytes at `data` into the 20 bytes at `digest`; 1 on success, 0 on failure.
static inline int copenssl_ripemd160(const void *data, size_t length, unsigned char *digest) {
    unsigned int size = 0;
    int ok = EVP_Digest(data, length, digest, &size, EVP_ripemd160(), NULL);
    return ok == 1 && size == 20;
}

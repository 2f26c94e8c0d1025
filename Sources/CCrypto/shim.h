// SHA-1 through OpenSSL's EVP interface (the one-shot SHA1() is deprecated in OpenSSL 3), and
// HMAC-SHA256 for the signature of alert webhooks (X-Agg-Signature).
#ifndef AGG_CCRYPTO_SHIM_H
#define AGG_CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/// Writes the 20-byte SHA-1 digest of `length` bytes at `data` into `digest`; returns 1 on success.
static inline int agg_sha1(const void *data, size_t length, unsigned char *digest) {
    unsigned int size = 0;
    return EVP_Digest(data, length, digest, &size, EVP_sha1(), NULL) == 1 && size == 20;
}

/// Writes the 32-byte HMAC-SHA256 of `length` bytes at `data` under the `key_length`-byte `key`
/// into `mac`; returns 1 on success.
static inline int agg_hmac_sha256(
    const void *key, size_t key_length, const void *data, size_t length, unsigned char *mac) {
    unsigned int size = 0;
    // HMAC() wants a non-NULL key even when it is empty.
    static const unsigned char empty = 0;
    return HMAC(EVP_sha256(), key_length ? key : &empty, (int)key_length, data, length, mac, &size) != NULL
        && size == 32;
}

#endif

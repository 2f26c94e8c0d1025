// SHA-1 through OpenSSL's EVP interface (the one-shot SHA1() is deprecated in OpenSSL 3).
#ifndef AGG_CCRYPTO_SHIM_H
#define AGG_CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/evp.h>

/// Writes the 20-byte SHA-1 digest of `length` bytes at `data` into `digest`; returns 1 on success.
static inline int agg_sha1(const void *data, size_t length, unsigned char *digest) {
    unsigned int size = 0;
    return EVP_Digest(data, length, digest, &size, EVP_sha1(), NULL) == 1 && size == 20;
}

#endif

// A small C API over Crypto++ so Swift never sees C++ (and no C++ exception reaches Swift).
// Every function returns 0 on success and a negative code on failure.
#ifndef DFUKIT_CRYPTO_H
#define DFUKIT_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DFUKIT_CRYPTO_OK 0
#define DFUKIT_CRYPTO_ERROR (-1)
#define DFUKIT_CRYPTO_BAD_KEY (-2)
#define DFUKIT_CRYPTO_BAD_SIGNATURE (-3)

typedef struct dfukit_sha256 dfukit_sha256;

/// Creates a streaming SHA-256 context; NULL when out of memory.
dfukit_sha256 *dfukit_sha256_new(void);
int dfukit_sha256_update(dfukit_sha256 *ctx, const uint8_t *bytes, size_t count);
/// Writes the 32-byte digest and resets the context for reuse.
int dfukit_sha256_final(dfukit_sha256 *ctx, uint8_t digest[32]);
void dfukit_sha256_free(dfukit_sha256 *ctx);

/// Verifies an ECDSA P-256 signature over SHA-256(message).
/// `public_key_der` is a DER SubjectPublicKeyInfo; `signature` is r||s (64 bytes, big-endian
/// each) when `signature_is_der` is 0, else an ASN.1 DER SEQUENCE{r, s}.
/// Returns 0 when valid, DFUKIT_CRYPTO_BAD_SIGNATURE when not, DFUKIT_CRYPTO_BAD_KEY for a bad key.
int dfukit_ecdsa_p256_verify(const uint8_t *public_key_der, size_t key_count,
                             const uint8_t *message, size_t message_count,
                             const uint8_t *signature, size_t signature_count,
                             int signature_is_der);

/// Verifies an Ed25519 signature (64 bytes) with a DER SubjectPublicKeyInfo or a raw 32-byte key.
int dfukit_ed25519_verify(const uint8_t *public_key, size_t key_count,
                          const uint8_t *message, size_t message_count,
                          const uint8_t *signature, size_t signature_count);

#ifdef __cplusplus
}
#endif
#endif

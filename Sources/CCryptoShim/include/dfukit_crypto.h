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
#define DFUKIT_CRYPTO_SHORT_BUFFER (-4)

/// SHA-2 variants, named by digest size in bits.
#define DFUKIT_SHA256 256
#define DFUKIT_SHA384 384
#define DFUKIT_SHA512 512

typedef struct dfukit_digest dfukit_digest;

/// Creates a streaming SHA-2 context (DFUKIT_SHA256, _SHA384 or _SHA512); NULL when out of
/// memory or for another algorithm.
dfukit_digest *dfukit_digest_new(int algorithm);
/// The digest size in bytes (32, 48 or 64).
size_t dfukit_digest_size(const dfukit_digest *ctx);
int dfukit_digest_update(dfukit_digest *ctx, const uint8_t *bytes, size_t count);
/// Writes the digest (`dfukit_digest_size` bytes) and resets the context for reuse.
int dfukit_digest_final(dfukit_digest *ctx, uint8_t *digest, size_t digest_count);
void dfukit_digest_free(dfukit_digest *ctx);

/// Verifies an ECDSA signature on NIST P-256 over SHA-256(message) (`curve_bits` 256) or on
/// P-384 over SHA-384(message) (384), the pairs MCUboot and Nordic use.
/// `public_key_der` is a DER SubjectPublicKeyInfo on exactly that curve; `signature` is r||s
/// (big-endian, each the curve's size) when `signature_is_der` is 0, else an ASN.1 DER
/// SEQUENCE{r, s}. Returns 0 when valid, DFUKIT_CRYPTO_BAD_SIGNATURE when not,
/// DFUKIT_CRYPTO_BAD_KEY for a bad key or another curve.
int dfukit_ecdsa_verify(int curve_bits, const uint8_t *public_key_der, size_t key_count,
                        const uint8_t *message, size_t message_count,
                        const uint8_t *signature, size_t signature_count,
                        int signature_is_der);

/// Verifies an Ed25519 signature (64 bytes) with a DER SubjectPublicKeyInfo or a raw 32-byte key.
int dfukit_ed25519_verify(const uint8_t *public_key, size_t key_count,
                          const uint8_t *message, size_t message_count,
                          const uint8_t *signature, size_t signature_count);

/// Ed25519 keys and signatures (RFC 8032, PureEdDSA). A private key is its 32-byte seed (what
/// RFC 8032 calls the secret key and PKCS#8 holds); the public key is 32 bytes.

/// Makes a new key pair from the operating system's random source: writes the seed and the
/// public key.
int dfukit_ed25519_generate(uint8_t seed[32], uint8_t public_key[32]);

/// The public key of a seed.
int dfukit_ed25519_public_key(const uint8_t seed[32], uint8_t public_key[32]);

/// Signs `message` itself with the seed's key: writes the 64-byte signature.
int dfukit_ed25519_sign(const uint8_t seed[32], const uint8_t *message, size_t message_count,
                        uint8_t signature[64]);

/// Reads a DER PKCS#8 PrivateKeyInfo / OneAsymmetricKey (RFC 8410) holding an Ed25519 key and
/// writes its seed; DFUKIT_CRYPTO_BAD_KEY for anything else.
int dfukit_ed25519_seed_from_pkcs8(const uint8_t *der, size_t der_count, uint8_t seed[32]);

/// Verifies an RSASSA-PSS signature over SHA-256(message) with MGF1(SHA-256) and a 32-byte
/// salt (what MCUboot's RSA2048/RSA3072 TLVs hold). `public_key_der` is a DER
/// SubjectPublicKeyInfo or a PKCS#1 RSAPublicKey.
int dfukit_rsa_pss_sha256_verify(const uint8_t *public_key_der, size_t key_count,
                                 const uint8_t *message, size_t message_count,
                                 const uint8_t *signature, size_t signature_count);

/// The PKCS#1 RSAPublicKey DER of an RSA key given as SubjectPublicKeyInfo or PKCS#1 (what
/// imgtool hashes into KEYHASH for RSA keys). Writes at most `capacity` bytes to `out` and the
/// length to `*written`; DFUKIT_CRYPTO_SHORT_BUFFER when it does not fit.
int dfukit_rsa_public_key_pkcs1(const uint8_t *public_key_der, size_t key_count,
                                uint8_t *out, size_t capacity, size_t *written);

/// The size in bits of an RSA key's modulus (SubjectPublicKeyInfo or PKCS#1), or a negative code.
int dfukit_rsa_modulus_bits(const uint8_t *public_key_der, size_t key_count);

/// AES-128 of one 16-byte block (the Bluetooth security function `e`, Core Vol 3, Part H, 2.2.1:
/// key and blocks most significant byte first).
int dfukit_aes128_encrypt(const uint8_t key[16], const uint8_t plaintext[16], uint8_t ciphertext[16]);

#ifdef __cplusplus
}
#endif
#endif

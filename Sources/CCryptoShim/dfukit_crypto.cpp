// Crypto++ behind a C API. Every entry point catches all exceptions.
#include "dfukit_crypto.h"

#include <cryptopp/sha.h>
#include <cryptopp/eccrypto.h>
#include <cryptopp/oids.h>
#include <cryptopp/dsa.h>
#include <cryptopp/queue.h>
#include <cryptopp/xed25519.h>
#include <cryptopp/rsa.h>
#include <cryptopp/pssr.h>
#include <cryptopp/aes.h>
#include <cryptopp/osrng.h>

#include <cstring>
#include <memory>
#include <new>

struct dfukit_digest {
    std::unique_ptr<CryptoPP::HashTransformation> hash;
};

extern "C" dfukit_digest *dfukit_digest_new(int algorithm) {
    try {
        std::unique_ptr<CryptoPP::HashTransformation> hash;
        switch (algorithm) {
        case DFUKIT_SHA256: hash.reset(new CryptoPP::SHA256()); break;
        case DFUKIT_SHA384: hash.reset(new CryptoPP::SHA384()); break;
        case DFUKIT_SHA512: hash.reset(new CryptoPP::SHA512()); break;
        default: return nullptr;
        }
        dfukit_digest *ctx = new (std::nothrow) dfukit_digest();
        if (ctx != nullptr) ctx->hash = std::move(hash);
        return ctx;
    } catch (...) {
        return nullptr;
    }
}

extern "C" size_t dfukit_digest_size(const dfukit_digest *ctx) {
    return ctx == nullptr ? 0 : ctx->hash->DigestSize();
}

extern "C" int dfukit_digest_update(dfukit_digest *ctx, const uint8_t *bytes, size_t count) {
    if (ctx == nullptr) return DFUKIT_CRYPTO_ERROR;
    try {
        if (count > 0) ctx->hash->Update(bytes, count);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" int dfukit_digest_final(dfukit_digest *ctx, uint8_t *digest, size_t digest_count) {
    if (ctx == nullptr) return DFUKIT_CRYPTO_ERROR;
    if (digest_count < ctx->hash->DigestSize()) return DFUKIT_CRYPTO_SHORT_BUFFER;
    try {
        ctx->hash->Final(digest);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" void dfukit_digest_free(dfukit_digest *ctx) { delete ctx; }

namespace {

CryptoPP::ByteQueue queueOf(const uint8_t *bytes, size_t count) {
    CryptoPP::ByteQueue queue;
    queue.Put(bytes, count);
    queue.MessageEnd();
    return queue;
}

/// ECDSA with the hash MCUboot pairs with the curve. The key names its own curve: a
/// field-size check alone would accept secp256k1 or brainpool keys, so the curve (and base
/// point) must be exactly `curve`, and the public point must lie on it (Load does not check).
template <class Hash>
int ecdsaVerify(const CryptoPP::OID &curve, const uint8_t *public_key_der, size_t key_count,
                const uint8_t *message, size_t message_count,
                const uint8_t *signature, size_t signature_count, int signature_is_der) {
    using namespace CryptoPP;
    typename ECDSA<ECP, Hash>::PublicKey key;
    try {
        ByteQueue queue = queueOf(public_key_der, key_count);
        key.Load(queue);
        const DL_GroupParameters_EC<ECP> expected(curve);
        if (!(key.GetGroupParameters() == expected)) return DFUKIT_CRYPTO_BAD_KEY;
        if (!key.GetGroupParameters().ValidateElement(1, key.GetPublicElement(), nullptr)) {
            return DFUKIT_CRYPTO_BAD_KEY;
        }
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_KEY;
    }
    try {
        typename ECDSA<ECP, Hash>::Verifier verifier(key);
        SecByteBlock p1363(verifier.SignatureLength());
        size_t p1363_length = p1363.size();
        if (signature_is_der) {
            p1363_length = DSAConvertSignatureFormat(p1363, p1363.size(), DSA_P1363,
                                                     signature, signature_count, DSA_DER);
        } else {
            if (signature_count != p1363.size()) return DFUKIT_CRYPTO_BAD_SIGNATURE;
            memcpy(p1363, signature, signature_count);
        }
        bool ok = verifier.VerifyMessage(message, message_count, p1363, p1363_length);
        return ok ? DFUKIT_CRYPTO_OK : DFUKIT_CRYPTO_BAD_SIGNATURE;
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_SIGNATURE;
    }
}

/// Loads an RSA public key from a SubjectPublicKeyInfo, or failing that a PKCS#1 RSAPublicKey.
bool loadRSA(CryptoPP::RSA::PublicKey &key, const uint8_t *der, size_t count) {
    try {
        CryptoPP::ByteQueue queue = queueOf(der, count);
        key.Load(queue);
        return true;
    } catch (...) {
    }
    try {
        CryptoPP::ByteQueue queue = queueOf(der, count);
        key.BERDecodePublicKey(queue, false, count);
        return true;
    } catch (...) {
        return false;
    }
}

}  // namespace

extern "C" int dfukit_ecdsa_verify(int curve_bits, const uint8_t *public_key_der, size_t key_count,
                                   const uint8_t *message, size_t message_count,
                                   const uint8_t *signature, size_t signature_count,
                                   int signature_is_der) {
    using namespace CryptoPP;
    try {
        switch (curve_bits) {
        case 256:
            return ecdsaVerify<SHA256>(ASN1::secp256r1(), public_key_der, key_count, message, message_count,
                                       signature, signature_count, signature_is_der);
        case 384:
            return ecdsaVerify<SHA384>(ASN1::secp384r1(), public_key_der, key_count, message, message_count,
                                       signature, signature_count, signature_is_der);
        default:
            return DFUKIT_CRYPTO_BAD_KEY;
        }
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" int dfukit_ed25519_verify(const uint8_t *public_key, size_t key_count,
                                     const uint8_t *message, size_t message_count,
                                     const uint8_t *signature, size_t signature_count) {
    using namespace CryptoPP;
    if (signature_count != 64) return DFUKIT_CRYPTO_BAD_SIGNATURE;
    try {
        ed25519Verifier verifier;
        if (key_count == 32) {
            verifier = ed25519Verifier(public_key);
        } else {
            ByteQueue queue = queueOf(public_key, key_count);
            verifier = ed25519Verifier(queue);
        }
        bool ok = verifier.VerifyMessage(message, message_count, signature, signature_count);
        return ok ? DFUKIT_CRYPTO_OK : DFUKIT_CRYPTO_BAD_SIGNATURE;
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_KEY;
    }
}

extern "C" int dfukit_ed25519_generate(uint8_t seed[32], uint8_t public_key[32]) {
    using namespace CryptoPP;
    try {
        AutoSeededRandomPool rng;
        ed25519Signer signer(rng);
        const ed25519PrivateKey &key = dynamic_cast<const ed25519PrivateKey &>(signer.GetPrivateKey());
        memcpy(seed, key.GetPrivateKeyBytePtr(), 32);
        memcpy(public_key, key.GetPublicKeyBytePtr(), 32);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" int dfukit_ed25519_public_key(const uint8_t seed[32], uint8_t public_key[32]) {
    using namespace CryptoPP;
    try {
        ed25519Signer signer(seed);
        const ed25519PrivateKey &key = dynamic_cast<const ed25519PrivateKey &>(signer.GetPrivateKey());
        memcpy(public_key, key.GetPublicKeyBytePtr(), 32);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_KEY;
    }
}

extern "C" int dfukit_ed25519_sign(const uint8_t seed[32], const uint8_t *message, size_t message_count,
                                   uint8_t signature[64]) {
    using namespace CryptoPP;
    try {
        ed25519Signer signer(seed);
        // Ed25519 signatures are deterministic: the generator is not used.
        size_t written = signer.SignMessage(NullRNG(), message, message_count, signature);
        return written == 64 ? DFUKIT_CRYPTO_OK : DFUKIT_CRYPTO_ERROR;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" int dfukit_ed25519_seed_from_pkcs8(const uint8_t *der, size_t der_count, uint8_t seed[32]) {
    using namespace CryptoPP;
    try {
        ByteQueue queue = queueOf(der, der_count);
        ed25519PrivateKey key;
        key.Load(queue);
        if (queue.MaxRetrievable() != 0) return DFUKIT_CRYPTO_BAD_KEY;
        memcpy(seed, key.GetPrivateKeyBytePtr(), 32);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_KEY;
    }
}

extern "C" int dfukit_rsa_pss_sha256_verify(const uint8_t *public_key_der, size_t key_count,
                                            const uint8_t *message, size_t message_count,
                                            const uint8_t *signature, size_t signature_count) {
    using namespace CryptoPP;
    RSA::PublicKey key;
    if (!loadRSA(key, public_key_der, key_count)) return DFUKIT_CRYPTO_BAD_KEY;
    try {
        // PSS in Crypto++ uses MGF1 with the same hash and a salt as long as the digest (32).
        RSASS<PSS, SHA256>::Verifier verifier(key);
        if (signature_count != verifier.SignatureLength()) return DFUKIT_CRYPTO_BAD_SIGNATURE;
        bool ok = verifier.VerifyMessage(message, message_count, signature, signature_count);
        return ok ? DFUKIT_CRYPTO_OK : DFUKIT_CRYPTO_BAD_SIGNATURE;
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_SIGNATURE;
    }
}

extern "C" int dfukit_rsa_public_key_pkcs1(const uint8_t *public_key_der, size_t key_count,
                                           uint8_t *out, size_t capacity, size_t *written) {
    using namespace CryptoPP;
    RSA::PublicKey key;
    if (!loadRSA(key, public_key_der, key_count)) return DFUKIT_CRYPTO_BAD_KEY;
    try {
        ByteQueue queue;
        key.DEREncodePublicKey(queue);
        size_t size = static_cast<size_t>(queue.MaxRetrievable());
        if (written != nullptr) *written = size;
        if (size > capacity) return DFUKIT_CRYPTO_SHORT_BUFFER;
        queue.Get(out, size);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" int dfukit_rsa_modulus_bits(const uint8_t *public_key_der, size_t key_count) {
    CryptoPP::RSA::PublicKey key;
    if (!loadRSA(key, public_key_der, key_count)) return DFUKIT_CRYPTO_BAD_KEY;
    return static_cast<int>(key.GetModulus().BitCount());
}

extern "C" int dfukit_aes128_encrypt(const uint8_t key[16], const uint8_t plaintext[16], uint8_t ciphertext[16]) {
    try {
        CryptoPP::AES::Encryption aes(key, 16);
        aes.ProcessBlock(plaintext, ciphertext);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

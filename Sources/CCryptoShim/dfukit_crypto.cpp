// Crypto++ behind a C API. Every entry point catches all exceptions.
#include "dfukit_crypto.h"

#include <cryptopp/sha.h>
#include <cryptopp/eccrypto.h>
#include <cryptopp/oids.h>
#include <cryptopp/dsa.h>
#include <cryptopp/queue.h>
#include <cryptopp/xed25519.h>

#include <cstring>
#include <new>

struct dfukit_sha256 {
    CryptoPP::SHA256 hash;
};

extern "C" dfukit_sha256 *dfukit_sha256_new(void) {
    try {
        return new (std::nothrow) dfukit_sha256();
    } catch (...) {
        return nullptr;
    }
}

extern "C" int dfukit_sha256_update(dfukit_sha256 *ctx, const uint8_t *bytes, size_t count) {
    if (ctx == nullptr) return DFUKIT_CRYPTO_ERROR;
    try {
        if (count > 0) ctx->hash.Update(bytes, count);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" int dfukit_sha256_final(dfukit_sha256 *ctx, uint8_t digest[32]) {
    if (ctx == nullptr) return DFUKIT_CRYPTO_ERROR;
    try {
        ctx->hash.Final(digest);
        return DFUKIT_CRYPTO_OK;
    } catch (...) {
        return DFUKIT_CRYPTO_ERROR;
    }
}

extern "C" void dfukit_sha256_free(dfukit_sha256 *ctx) { delete ctx; }

extern "C" int dfukit_ecdsa_p256_verify(const uint8_t *public_key_der, size_t key_count,
                                        const uint8_t *message, size_t message_count,
                                        const uint8_t *signature, size_t signature_count,
                                        int signature_is_der) {
    using namespace CryptoPP;
    ECDSA<ECP, SHA256>::PublicKey key;
    try {
        ByteQueue queue;
        queue.Put(public_key_der, key_count);
        queue.MessageEnd();
        key.Load(queue);
        // The key names its own curve: a field-size check alone would accept secp256k1 or
        // brainpool256 keys as "P-256". Require exactly secp256r1 (curve and base point), and a
        // public point that lies on it (Load does not check this).
        const DL_GroupParameters_EC<ECP> p256(ASN1::secp256r1());
        if (!(key.GetGroupParameters() == p256)) {
            return DFUKIT_CRYPTO_BAD_KEY;
        }
        if (!key.GetGroupParameters().ValidateElement(1, key.GetPublicElement(), nullptr)) {
            return DFUKIT_CRYPTO_BAD_KEY;
        }
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_KEY;
    }
    try {
        ECDSA<ECP, SHA256>::Verifier verifier(key);
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
            ByteQueue queue;
            queue.Put(public_key, key_count);
            queue.MessageEnd();
            verifier = ed25519Verifier(queue);
        }
        bool ok = verifier.VerifyMessage(message, message_count, signature, signature_count);
        return ok ? DFUKIT_CRYPTO_OK : DFUKIT_CRYPTO_BAD_SIGNATURE;
    } catch (...) {
        return DFUKIT_CRYPTO_BAD_KEY;
    }
}

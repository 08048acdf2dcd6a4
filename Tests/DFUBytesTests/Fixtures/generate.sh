#!/bin/sh
# Regenerates the signature fixtures with the openssl command line (OpenSSL 3.x).
# The private keys are deliberately not kept: only public keys, the message and signatures.
# Run from this folder: sh generate.sh
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'DFUKit signed firmware image fixture, version 1.2.3\n' > message.bin
printf 'DFUKit signed firmware image fixture, version 1.2.4\n' > message-tampered.bin

# ECDSA P-256 (prime256v1 = secp256r1) over SHA-256.
openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/p256.pem"
openssl ec -in "$tmp/p256.pem" -pubout -out ecdsa-p256-public.pem 2>/dev/null
openssl ec -in "$tmp/p256.pem" -pubout -outform DER -out ecdsa-p256-public.der 2>/dev/null
openssl dgst -sha256 -sign "$tmp/p256.pem" -out ecdsa-p256-signature.der message.bin
# The same signature as r||s, each 32 bytes big-endian, taken from openssl's own ASN.1 dump.
openssl asn1parse -inform DER -in ecdsa-p256-signature.der \
  | awk -F: '/INTEGER/ { v = $NF; while (length(v) < 64) v = "0" v; printf "%s", v }' \
  | xxd -r -p > ecdsa-p256-signature.raw

# A second, unrelated P-256 key (the wrong-key case).
openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/other.pem"
openssl ec -in "$tmp/other.pem" -pubout -out ecdsa-p256-other-public.pem 2>/dev/null

# Keys on other curves: a P-384 key and a secp256k1 key (same field size as P-256) must be
# refused as "not a P-256 key", with a signature made by that key.
openssl ecparam -name secp384r1 -genkey -noout -out "$tmp/p384.pem"
openssl ec -in "$tmp/p384.pem" -pubout -out ecdsa-p384-public.pem 2>/dev/null
openssl ecparam -name secp256k1 -genkey -noout -out "$tmp/k1.pem"
openssl ec -in "$tmp/k1.pem" -pubout -out ecdsa-secp256k1-public.pem 2>/dev/null
openssl dgst -sha256 -sign "$tmp/k1.pem" -out ecdsa-secp256k1-signature.der message.bin

# Ed25519 (PureEdDSA: the message itself is signed).
openssl genpkey -algorithm ed25519 -out "$tmp/ed.pem"
openssl pkey -in "$tmp/ed.pem" -pubout -out ed25519-public.pem
openssl pkeyutl -sign -inkey "$tmp/ed.pem" -rawin -in message.bin -out ed25519-signature.bin
openssl genpkey -algorithm ed25519 -out "$tmp/ed-other.pem"
openssl pkey -in "$tmp/ed-other.pem" -pubout -out ed25519-other-public.pem

# A malformed key: a valid PEM envelope around a SubjectPublicKeyInfo cut short.
head -c 40 ecdsa-p256-public.der > "$tmp/cut.der"
{ echo '-----BEGIN PUBLIC KEY-----'; base64 -w 64 "$tmp/cut.der"; echo '-----END PUBLIC KEY-----'; } \
  > malformed-public.pem

# Sanity: openssl itself accepts the good signatures and rejects the tampered message.
openssl dgst -sha256 -verify ecdsa-p256-public.pem -signature ecdsa-p256-signature.der message.bin
openssl pkeyutl -verify -pubin -inkey ed25519-public.pem -rawin -in message.bin -sigfile ed25519-signature.bin
if openssl dgst -sha256 -verify ecdsa-p256-public.pem -signature ecdsa-p256-signature.der message-tampered.bin; then
  echo "tampered message verified?" >&2; exit 1
fi

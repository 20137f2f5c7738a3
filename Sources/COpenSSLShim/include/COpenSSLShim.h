#ifndef COPENSSLSHIM_H
#define COPENSSLSHIM_H

// OpenSSL for the native WebSocket engine's TLS transport (Linux only; macOS gets an empty
// module and uses the URLSession engine). Swift cannot call OpenSSL's function-like macros, so
// they are wrapped here as static inline functions.
#ifdef __linux__

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

static inline int shim_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int shim_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
  return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long shim_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
  return SSL_CTX_set_mode(ctx, mode);
}

static inline long shim_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }

static inline long shim_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) {
  return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
}

static inline int shim_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }

/// Host-name checks use the subjectAltName only: a certificate without a DNS name there is not
/// accepted on its subject's CN (RFC 6125 §6.4.4, the CA/Browser Forum's baseline requirements).
static inline void shim_SSL_never_check_subject(SSL *ssl) {
  SSL_set_hostflags(ssl, X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
}

/// Loads OpenSSL (libssl.so.3 and its libcrypto) once; nonzero when it is ready. On failure,
/// `*error` points at the loader's reason (a static string). Call before any other OpenSSL
/// function: the engine links none of them, they forward to the loaded library. Where OpenSSL
/// is linked in (TICKER_STATIC_OPENSSL: the static build), there is nothing to load: always 1.
int shim_openssl_load(const char **error);
/// The version of the OpenSSL linked into this executable (OpenSSL_version's text), or NULL
/// when it is loaded at run time instead (then asking would load it).
const char *shim_openssl_linked_version(void);

/// Makes `ctx` trust the system's CAs. Where no bundle file is named (`file`: SSL_CERT_FILE, or
/// NULL) and the certificate directories (`directories`: the SSL_CERT_DIR list, or NULL for
/// OpenSSL's built-in directory) hold hashed entries (named by subject hash, as Debian's
/// /etc/ssl/certs), only they are used, and OpenSSL reads a CA when a chain needs it. Otherwise
/// OpenSSL's default paths, the file (`file`, or the built-in /usr/lib/ssl/cert.pem) read on
/// demand: a chain's issuer is looked for in it a certificate at a time, and only the CAs of that
/// name are kept, instead of parsing the whole bundle (about 140 certificates, 0.9 MB of heap)
/// into every context; and the directories. Returns 1 on success.
int shim_SSL_CTX_use_system_trust(SSL_CTX *ctx, const char *file, const char *directories);

/// A socket BIO on `fd` that sends with MSG_NOSIGNAL, so a write to a peer that has gone away
/// returns EPIPE instead of raising SIGPIPE (OpenSSL's own socket BIO uses write(2)).
/// The BIO does not own the descriptor. Returns NULL on allocation failure.
BIO *shim_BIO_new_nosigpipe_socket(int fd);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC): Swift's Glibc module does not import accept4
/// (it needs _GNU_SOURCE). Returns -1 with errno set on failure.
int shim_accept_cloexec(int fd);

/// Signs `message` with the Ed25519 private key `seed` (32 bytes, RFC 8032): the 64-byte
/// signature into `signature`, the 32-byte public key into `public_key`. Returns 1 on success.
/// OpenSSL must be loaded (`shim_openssl_load`).
int shim_ed25519_sign(const unsigned char *seed, const unsigned char *message, size_t length,
                      unsigned char *signature, unsigned char *public_key);

#endif  // __linux__

#endif  // COPENSSLSHIM_H

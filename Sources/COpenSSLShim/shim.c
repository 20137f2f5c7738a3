#ifdef __linux__
#define _GNU_SOURCE
#endif

#include "COpenSSLShim.h"

#ifdef __linux__

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

// OpenSSL is loaded when the first TLS connection needs it (`shim_openssl_load`), not linked:
// a ws:// run then never maps libssl and libcrypto (about 1.7 MB of resident pages). Each
// OpenSSL function the engine calls is defined here under its own name, hidden (never
// exported, so another copy of OpenSSL in the process, e.g. libcurl's, is not interposed), and
// forwards to the loaded library's. They must not be called before a successful load.
// The static build links OpenSSL in instead (TICKER_STATIC_OPENSSL, Scripts/build-static.sh):
// then none of this exists, and the calls go to OpenSSL's own functions.

#ifndef TICKER_STATIC_OPENSSL
#define OSSL(name) p_##name
static void *libssl = NULL;
static char load_error[256] = "";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define OPENSSL_FUNCTIONS(X) \
  X(BIO_clear_flags) X(BIO_get_data) X(BIO_get_new_index) X(BIO_meth_new) X(BIO_meth_set_create) \
  X(BIO_meth_set_ctrl) X(BIO_meth_set_puts) X(BIO_meth_set_read) X(BIO_meth_set_write) X(BIO_new) \
  X(BIO_set_data) X(BIO_set_flags) X(BIO_set_init) X(CRYPTO_THREAD_run_once) X(ERR_clear_error) \
  X(ERR_error_string_n) X(ERR_get_error) X(ERR_peek_error) X(SSL_CTX_ctrl) X(SSL_CTX_free) \
  X(SSL_CTX_load_verify_locations) X(SSL_CTX_new) X(SSL_CTX_set_default_verify_paths) \
  X(SSL_CTX_set_verify) X(SSL_connect) X(SSL_ctrl) X(SSL_free) X(SSL_get0_param) X(SSL_get_error) \
  X(SSL_get_verify_result) X(SSL_is_init_finished) X(SSL_new) X(SSL_read) X(SSL_set1_host) \
  X(SSL_set_bio) X(SSL_set_connect_state) X(SSL_set_hostflags) X(SSL_shutdown) X(SSL_write) \
  X(TLS_client_method) X(X509_VERIFY_PARAM_set1_ip_asc) X(X509_verify_cert_error_string) \
  X(X509_get_default_cert_dir) X(EVP_PKEY_new_raw_private_key) X(EVP_PKEY_get_raw_public_key) \
  X(EVP_PKEY_free) X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_DigestSignInit) X(EVP_DigestSign) \
  X(X509_get_default_cert_file) X(SSL_CTX_get_cert_store) \
  X(X509_LOOKUP_meth_new) X(X509_LOOKUP_meth_set_get_by_subject) X(X509_LOOKUP_meth_set_free) \
  X(X509_STORE_add_lookup) X(X509_LOOKUP_set_method_data) X(X509_LOOKUP_get_method_data) \
  X(X509_LOOKUP_get_store) X(BIO_new_file) X(BIO_free) X(PEM_read_bio_X509_AUX) X(X509_get_subject_name) \
  X(X509_NAME_cmp) X(X509_STORE_add_cert) X(X509_free) X(X509_OBJECT_set1_X509) \
  X(X509_STORE_lock) X(X509_STORE_unlock) X(X509_STORE_get0_objects) X(X509_OBJECT_retrieve_by_subject) \
  X(X509_OBJECT_get0_X509)

#define DECLARE_POINTER(name) static __typeof__(&name) p_##name = NULL;
OPENSSL_FUNCTIONS(DECLARE_POINTER)

static void load(void) {
  // libssl.so.3 brings libcrypto.so.3; lookups through its handle find both.
  void *handle = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(load_error, sizeof load_error, "%s", why != NULL ? why : "dlopen failed");
    return;
  }
#define RESOLVE(name)                                                                      \
  p_##name = (__typeof__(&name))dlsym(handle, #name);                                      \
  if (p_##name == NULL) {                                                                  \
    snprintf(load_error, sizeof load_error, "libssl.so.3 has no %s", #name);               \
    return;                                                                                \
  }
  OPENSSL_FUNCTIONS(RESOLVE)
#undef RESOLVE
  libssl = handle;
}

int shim_openssl_load(const char **error) {
  pthread_once(&load_once, load);
  if (libssl != NULL) return 1;
  if (error != NULL) *error = load_error;
  return 0;
}

#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN void BIO_clear_flags(BIO *b, int flags) { p_BIO_clear_flags(b, flags); }
HIDDEN void *BIO_get_data(BIO *a) { return p_BIO_get_data(a); }
HIDDEN int BIO_get_new_index(void) { return p_BIO_get_new_index(); }
HIDDEN BIO_METHOD *BIO_meth_new(int type, const char *name) { return p_BIO_meth_new(type, name); }
HIDDEN int BIO_meth_set_create(BIO_METHOD *m, int (*create)(BIO *)) { return p_BIO_meth_set_create(m, create); }
HIDDEN int BIO_meth_set_ctrl(BIO_METHOD *m, long (*ctrl)(BIO *, int, long, void *)) {
  return p_BIO_meth_set_ctrl(m, ctrl);
}
HIDDEN int BIO_meth_set_puts(BIO_METHOD *m, int (*puts)(BIO *, const char *)) { return p_BIO_meth_set_puts(m, puts); }
HIDDEN int BIO_meth_set_read(BIO_METHOD *m, int (*read)(BIO *, char *, int)) { return p_BIO_meth_set_read(m, read); }
HIDDEN int BIO_meth_set_write(BIO_METHOD *m, int (*write)(BIO *, const char *, int)) {
  return p_BIO_meth_set_write(m, write);
}
HIDDEN BIO *BIO_new(const BIO_METHOD *type) { return p_BIO_new(type); }
HIDDEN void BIO_set_data(BIO *a, void *ptr) { p_BIO_set_data(a, ptr); }
HIDDEN void BIO_set_flags(BIO *b, int flags) { p_BIO_set_flags(b, flags); }
HIDDEN void BIO_set_init(BIO *a, int init) { p_BIO_set_init(a, init); }
HIDDEN int CRYPTO_THREAD_run_once(CRYPTO_ONCE *once, void (*init)(void)) { return p_CRYPTO_THREAD_run_once(once, init); }
HIDDEN void ERR_clear_error(void) { p_ERR_clear_error(); }
HIDDEN void ERR_error_string_n(unsigned long e, char *buf, size_t len) { p_ERR_error_string_n(e, buf, len); }
HIDDEN unsigned long ERR_get_error(void) { return p_ERR_get_error(); }
HIDDEN unsigned long ERR_peek_error(void) { return p_ERR_peek_error(); }
HIDDEN long SSL_CTX_ctrl(SSL_CTX *ctx, int cmd, long larg, void *parg) { return p_SSL_CTX_ctrl(ctx, cmd, larg, parg); }
HIDDEN void SSL_CTX_free(SSL_CTX *ctx) { p_SSL_CTX_free(ctx); }
HIDDEN int SSL_CTX_load_verify_locations(SSL_CTX *ctx, const char *file, const char *path) {
  return p_SSL_CTX_load_verify_locations(ctx, file, path);
}
HIDDEN SSL_CTX *SSL_CTX_new(const SSL_METHOD *meth) { return p_SSL_CTX_new(meth); }
HIDDEN int SSL_CTX_set_default_verify_paths(SSL_CTX *ctx) { return p_SSL_CTX_set_default_verify_paths(ctx); }
HIDDEN void SSL_CTX_set_verify(SSL_CTX *ctx, int mode, SSL_verify_cb callback) { p_SSL_CTX_set_verify(ctx, mode, callback); }
HIDDEN int SSL_connect(SSL *ssl) { return p_SSL_connect(ssl); }
HIDDEN long SSL_ctrl(SSL *ssl, int cmd, long larg, void *parg) { return p_SSL_ctrl(ssl, cmd, larg, parg); }
HIDDEN void SSL_free(SSL *ssl) { p_SSL_free(ssl); }
HIDDEN X509_VERIFY_PARAM *SSL_get0_param(SSL *ssl) { return p_SSL_get0_param(ssl); }
HIDDEN int SSL_get_error(const SSL *s, int ret_code) { return p_SSL_get_error(s, ret_code); }
HIDDEN long SSL_get_verify_result(const SSL *ssl) { return p_SSL_get_verify_result(ssl); }
HIDDEN int SSL_is_init_finished(const SSL *s) { return p_SSL_is_init_finished(s); }
HIDDEN SSL *SSL_new(SSL_CTX *ctx) { return p_SSL_new(ctx); }
HIDDEN int SSL_read(SSL *ssl, void *buf, int num) { return p_SSL_read(ssl, buf, num); }
HIDDEN int SSL_set1_host(SSL *s, const char *hostname) { return p_SSL_set1_host(s, hostname); }
HIDDEN void SSL_set_bio(SSL *s, BIO *rbio, BIO *wbio) { p_SSL_set_bio(s, rbio, wbio); }
HIDDEN void SSL_set_connect_state(SSL *s) { p_SSL_set_connect_state(s); }
HIDDEN void SSL_set_hostflags(SSL *s, unsigned int flags) { p_SSL_set_hostflags(s, flags); }
HIDDEN int SSL_shutdown(SSL *s) { return p_SSL_shutdown(s); }
HIDDEN int SSL_write(SSL *ssl, const void *buf, int num) { return p_SSL_write(ssl, buf, num); }
HIDDEN const SSL_METHOD *TLS_client_method(void) { return p_TLS_client_method(); }
HIDDEN int X509_VERIFY_PARAM_set1_ip_asc(X509_VERIFY_PARAM *param, const char *ipasc) {
  return p_X509_VERIFY_PARAM_set1_ip_asc(param, ipasc);
}
HIDDEN const char *X509_verify_cert_error_string(long n) { return p_X509_verify_cert_error_string(n); }
HIDDEN EVP_PKEY *EVP_PKEY_new_raw_private_key(int type, ENGINE *e, const unsigned char *key, size_t len) {
  return p_EVP_PKEY_new_raw_private_key(type, e, key, len);
}
HIDDEN int EVP_PKEY_get_raw_public_key(const EVP_PKEY *pkey, unsigned char *pub, size_t *len) {
  return p_EVP_PKEY_get_raw_public_key(pkey, pub, len);
}
HIDDEN void EVP_PKEY_free(EVP_PKEY *pkey) { p_EVP_PKEY_free(pkey); }
HIDDEN EVP_MD_CTX *EVP_MD_CTX_new(void) { return p_EVP_MD_CTX_new(); }
HIDDEN void EVP_MD_CTX_free(EVP_MD_CTX *ctx) { p_EVP_MD_CTX_free(ctx); }
HIDDEN int EVP_DigestSignInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey) {
  return p_EVP_DigestSignInit(ctx, pctx, type, e, pkey);
}
HIDDEN int EVP_DigestSign(EVP_MD_CTX *ctx, unsigned char *sig, size_t *siglen, const unsigned char *tbs, size_t tbslen) {
  return p_EVP_DigestSign(ctx, sig, siglen, tbs, tbslen);
}

HIDDEN const char *X509_get_default_cert_file(void) { return p_X509_get_default_cert_file(); }
HIDDEN X509_STORE *SSL_CTX_get_cert_store(const SSL_CTX *ctx) { return p_SSL_CTX_get_cert_store(ctx); }
HIDDEN X509_LOOKUP_METHOD *X509_LOOKUP_meth_new(const char *name) { return p_X509_LOOKUP_meth_new(name); }
HIDDEN int X509_LOOKUP_meth_set_get_by_subject(X509_LOOKUP_METHOD *m, X509_LOOKUP_get_by_subject_fn fn) {
  return p_X509_LOOKUP_meth_set_get_by_subject(m, fn);
}
HIDDEN int X509_LOOKUP_meth_set_free(X509_LOOKUP_METHOD *m, void (*fn)(X509_LOOKUP *ctx)) {
  return p_X509_LOOKUP_meth_set_free(m, fn);
}
HIDDEN X509_LOOKUP *X509_STORE_add_lookup(X509_STORE *v, X509_LOOKUP_METHOD *m) { return p_X509_STORE_add_lookup(v, m); }
HIDDEN int X509_LOOKUP_set_method_data(X509_LOOKUP *ctx, void *data) { return p_X509_LOOKUP_set_method_data(ctx, data); }
HIDDEN void *X509_LOOKUP_get_method_data(const X509_LOOKUP *ctx) { return p_X509_LOOKUP_get_method_data(ctx); }
HIDDEN X509_STORE *X509_LOOKUP_get_store(const X509_LOOKUP *ctx) { return p_X509_LOOKUP_get_store(ctx); }
HIDDEN BIO *BIO_new_file(const char *filename, const char *mode) { return p_BIO_new_file(filename, mode); }
HIDDEN int BIO_free(BIO *a) { return p_BIO_free(a); }
HIDDEN X509 *PEM_read_bio_X509_AUX(BIO *out, X509 **x, pem_password_cb *cb, void *u) {
  return p_PEM_read_bio_X509_AUX(out, x, cb, u);
}
HIDDEN X509_NAME *X509_get_subject_name(const X509 *a) { return p_X509_get_subject_name(a); }
HIDDEN int X509_NAME_cmp(const X509_NAME *a, const X509_NAME *b) { return p_X509_NAME_cmp(a, b); }
HIDDEN int X509_STORE_add_cert(X509_STORE *ctx, X509 *x) { return p_X509_STORE_add_cert(ctx, x); }
HIDDEN void X509_free(X509 *a) { p_X509_free(a); }
HIDDEN int X509_OBJECT_set1_X509(X509_OBJECT *a, X509 *obj) { return p_X509_OBJECT_set1_X509(a, obj); }
HIDDEN int X509_STORE_lock(X509_STORE *ctx) { return p_X509_STORE_lock(ctx); }
HIDDEN int X509_STORE_unlock(X509_STORE *ctx) { return p_X509_STORE_unlock(ctx); }
HIDDEN STACK_OF(X509_OBJECT) *X509_STORE_get0_objects(const X509_STORE *v) { return p_X509_STORE_get0_objects(v); }
HIDDEN X509_OBJECT *X509_OBJECT_retrieve_by_subject(STACK_OF(X509_OBJECT) *h, X509_LOOKUP_TYPE type,
                                                   const X509_NAME *name) {
  return p_X509_OBJECT_retrieve_by_subject(h, type, name);
}
HIDDEN X509 *X509_OBJECT_get0_X509(const X509_OBJECT *a) { return p_X509_OBJECT_get0_X509(a); }

const char *shim_openssl_linked_version(void) { return NULL; }
#else
// Linked in (Scripts/build-static.sh defines TICKER_STATIC_OPENSSL): nothing to load, and the
// engine's calls go straight to libssl.a and libcrypto.a.
#define OSSL(name) name
int shim_openssl_load(const char **error) {
  (void)error;
  return 1;
}
const char *shim_openssl_linked_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
#endif

// Whether `name` is a hashed certificate entry: 8 hex digits, a dot, a number (`openssl
// rehash`, c_rehash, Debian's update-ca-certificates).
static int is_hash_entry(const char *name) {
  for (int i = 0; i < 8; i++) {
    char c = name[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return 0;
  }
  if (name[8] != '.' || name[9] < '0' || name[9] > '9') return 0;
  for (const char *c = name + 10; *c != 0; c++) {
    if (*c < '0' || *c > '9') return 0;
  }
  return 1;
}

// Whether one of the colon-separated directories holds a hashed certificate entry.
static int has_hashed_directory(const char *list) {
  char copy[4096];
  if (snprintf(copy, sizeof copy, "%s", list) >= (int)sizeof copy) return 0;
  char *rest = copy;
  for (char *dir = strsep(&rest, ":"); dir != NULL; dir = strsep(&rest, ":")) {
    if (*dir == 0) continue;
    DIR *d = opendir(dir);
    if (d == NULL) continue;
    int found = 0;
    for (struct dirent *e = readdir(d); e != NULL && !found; e = readdir(d)) found = is_hash_entry(e->d_name);
    closedir(d);
    if (found) return 1;
  }
  return 0;
}

// A bundle file of CA certificates read when a chain asks for an issuer, not when the context is
// made: the lookup reads the file a certificate at a time and adds to the store only those
// whose subject is the name asked for (all of them: a CA may have been re-issued), so the
// heap holds the CAs a connection used, not the whole bundle (about 140 certificates, 0.9 MB).
// The store keeps what was added, so a later chain finds it without reading the file.
static int bundle_get_by_subject(X509_LOOKUP *lookup, X509_LOOKUP_TYPE type, const X509_NAME *name,
                                 X509_OBJECT *ret) {
  const char *path = OSSL(X509_LOOKUP_get_method_data)(lookup);
  if (type != X509_LU_X509 || path == NULL || name == NULL) return 0;
  BIO *in = OSSL(BIO_new_file)(path, "r");
  if (in == NULL) {
    OSSL(ERR_clear_error)();
    return 0;
  }
  X509_STORE *store = OSSL(X509_LOOKUP_get_store)(lookup);
  int added = 0;
  X509 *x;
  while ((x = OSSL(PEM_read_bio_X509_AUX)(in, NULL, NULL, "")) != NULL) {
    if (OSSL(X509_NAME_cmp)(OSSL(X509_get_subject_name)(x), name) == 0) added |= OSSL(X509_STORE_add_cert)(store, x);
    OSSL(X509_free)(x);
  }
  // The end of the file is reported as an error ("no start line"), as a bad entry would be:
  // both end the reading, as they end OpenSSL's own (X509_load_cert_file).
  OSSL(ERR_clear_error)();
  OSSL(BIO_free)(in);
  if (!added) return 0;
  // `ret` borrows the store's certificate, as OpenSSL's own lookups fill it (the caller takes
  // its own reference); what the store holds stays there.
  if (!OSSL(X509_STORE_lock)(store)) return 0;
  X509_OBJECT *held = OSSL(X509_OBJECT_retrieve_by_subject)(OSSL(X509_STORE_get0_objects)(store), X509_LU_X509, name);
  X509 *cert = held != NULL ? OSSL(X509_OBJECT_get0_X509)(held) : NULL;
  int ok = cert != NULL && OSSL(X509_OBJECT_set1_X509)(ret, cert);
  OSSL(X509_STORE_unlock)(store);
  if (ok) OSSL(X509_free)(cert);
  return ok;
}

static void bundle_free(X509_LOOKUP *lookup) { free(OSSL(X509_LOOKUP_get_method_data)(lookup)); }

static X509_LOOKUP_METHOD *bundle_method = NULL;
static CRYPTO_ONCE bundle_once = CRYPTO_ONCE_STATIC_INIT;

static void make_bundle_method(void) {
  X509_LOOKUP_METHOD *method = OSSL(X509_LOOKUP_meth_new)("ticker: bundle file read on demand");
  if (method == NULL) return;
  OSSL(X509_LOOKUP_meth_set_get_by_subject)(method, bundle_get_by_subject);
  OSSL(X509_LOOKUP_meth_set_free)(method, bundle_free);
  bundle_method = method;
}

// Makes `store` look up issuers in the bundle at `path` on demand (`bundle_get_by_subject`).
static int add_bundle_lookup(X509_STORE *store, const char *path) {
  if (!OSSL(CRYPTO_THREAD_run_once)(&bundle_once, make_bundle_method) || bundle_method == NULL) return 0;
  X509_LOOKUP *lookup = OSSL(X509_STORE_add_lookup)(store, bundle_method);
  if (lookup == NULL) return 0;
  char *copy = strdup(path);
  if (copy == NULL) return 0;
  // Freed by bundle_free when the store goes.
  return OSSL(X509_LOOKUP_set_method_data)(lookup, copy);
}

int shim_SSL_CTX_use_system_trust(SSL_CTX *ctx, const char *file, const char *directories) {
  const char *dirs = directories != NULL ? directories : OSSL(X509_get_default_cert_dir)();
  if (file == NULL && dirs != NULL && has_hashed_directory(dirs)) {
    return OSSL(SSL_CTX_load_verify_locations)(ctx, NULL, dirs);
  }
  // OpenSSL's default paths, with the file read on demand: SSL_CERT_FILE or the built-in file,
  // and the SSL_CERT_DIR list or the built-in directory.
  if (file == NULL) file = OSSL(X509_get_default_cert_file)();
  if (!add_bundle_lookup(OSSL(SSL_CTX_get_cert_store)(ctx), file)) return 0;
  if (dirs == NULL) return 1;
  return OSSL(SSL_CTX_load_verify_locations)(ctx, NULL, dirs);
}

static BIO_METHOD *nosigpipe_method = NULL;
static CRYPTO_ONCE nosigpipe_once = CRYPTO_ONCE_STATIC_INIT;

static int should_retry(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

static int nosigpipe_write(BIO *bio, const char *buf, int len) {
  int fd = (int)(long)BIO_get_data(bio);
  BIO_clear_retry_flags(bio);
  ssize_t n = send(fd, buf, (size_t)len, MSG_NOSIGNAL);
  if (n < 0 && should_retry(errno)) BIO_set_retry_write(bio);
  return (int)n;
}

static int nosigpipe_read(BIO *bio, char *buf, int len) {
  int fd = (int)(long)BIO_get_data(bio);
  BIO_clear_retry_flags(bio);
  ssize_t n = recv(fd, buf, (size_t)len, 0);
  if (n < 0 && should_retry(errno)) BIO_set_retry_read(bio);
  return (int)n;
}

static int nosigpipe_puts(BIO *bio, const char *str) {
  return nosigpipe_write(bio, str, (int)strlen(str));
}

static long nosigpipe_ctrl(BIO *bio, int cmd, long num, void *ptr) {
  (void)bio;
  (void)num;
  (void)ptr;
  switch (cmd) {
    case BIO_CTRL_FLUSH:
    case BIO_CTRL_PUSH:
    case BIO_CTRL_POP:
      return 1;
    default:
      return 0;
  }
}

static int nosigpipe_create(BIO *bio) {
  BIO_set_init(bio, 1);
  return 1;
}

static void make_method(void) {
  BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "nosigpipe socket");
  if (m == NULL) return;
  BIO_meth_set_write(m, nosigpipe_write);
  BIO_meth_set_read(m, nosigpipe_read);
  BIO_meth_set_puts(m, nosigpipe_puts);
  BIO_meth_set_ctrl(m, nosigpipe_ctrl);
  BIO_meth_set_create(m, nosigpipe_create);
  nosigpipe_method = m;
}

BIO *shim_BIO_new_nosigpipe_socket(int fd) {
  if (!CRYPTO_THREAD_run_once(&nosigpipe_once, make_method) || nosigpipe_method == NULL) return NULL;
  BIO *bio = BIO_new(nosigpipe_method);
  if (bio == NULL) return NULL;
  BIO_set_data(bio, (void *)(long)fd);
  return bio;
}

int shim_accept_cloexec(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }

int shim_ed25519_sign(const unsigned char *seed, const unsigned char *message, size_t length,
                      unsigned char *signature, unsigned char *public_key) {
  int ok = 0;
  EVP_MD_CTX *ctx = NULL;
  EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
  if (key == NULL) goto done;
  size_t public_length = 32;
  if (EVP_PKEY_get_raw_public_key(key, public_key, &public_length) != 1 || public_length != 32) goto done;
  ctx = EVP_MD_CTX_new();
  if (ctx == NULL || EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) != 1) goto done;
  size_t signature_length = 64;
  ok = EVP_DigestSign(ctx, signature, &signature_length, message, length) == 1 && signature_length == 64;
done:
  if (ctx != NULL) EVP_MD_CTX_free(ctx);
  if (key != NULL) EVP_PKEY_free(key);
  return ok;
}

#endif  // __linux__

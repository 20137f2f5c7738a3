#ifdef __linux__
#define _GNU_SOURCE
#endif

#include "COpenSSLShim.h"

#ifdef __linux__

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

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

#endif  // __linux__

// A small client process for the URLSession engine's tests: loads libTickerURLSession.so (the
// ticker's URLSession engine plugin) through its C ABI and drives it from a line protocol, so
// that tests can run the engine in a process of its own, with LD_PRELOAD and LD_LIBRARY_PATH
// set (the test runner itself is already loaded and cannot take a preload).
//
// Usage: plugin_client PLUGIN_PATH
// Commands on stdin, one per line (HEX = payload bytes in hex, "-" for none); each but ping
// waits for its answer before the next is read:
//   header NAME VALUE          an extra request header for the next connect
//   probe                      -> PROBE 1 | PROBE 0 HEX(reason)
//   connect URL TIMEOUT MAXSIZE -> OPEN | FAILED ERROR
//   text HEX | binary HEX      -> SENT | SEND-FAILED ERROR
//   ping                       -> PONG | PING-FAILED ERROR  (may never come: corelibs bug)
//   close CODE HEX TIMEOUT     -> CLOSED (then the connection is released)
//   quit
// Events on stdout: TEXT HEX, BINARY HEX, END CODE HEX(reason) ERROR|-.
// ERROR is "KIND CODE RETRY HEX(text) HEX(host)" (ticker_ws_error).
// Every line is written whole and flushed at once.
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../Sources/TickerPluginABI/include/ticker_plugin_abi.h"

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
/// Posted by every done callback but ping's: commands run one at a time.
static sem_t done;

static char *hex(const void *bytes, size_t length) {
  static const char digits[] = "0123456789abcdef";
  char *out = malloc(length * 2 + 2);
  const uint8_t *b = bytes;
  if (length == 0) {
    strcpy(out, "-");
    return out;
  }
  for (size_t i = 0; i < length; i++) {
    out[2 * i] = digits[b[i] >> 4];
    out[2 * i + 1] = digits[b[i] & 15];
  }
  out[length * 2] = 0;
  return out;
}

static size_t unhex(const char *text, uint8_t **bytes) {
  size_t n = strcmp(text, "-") == 0 ? 0 : strlen(text) / 2;
  *bytes = malloc(n + 1);
  for (size_t i = 0; i < n; i++) {
    unsigned v = 0;
    sscanf(text + 2 * i, "%2x", &v);
    (*bytes)[i] = (uint8_t)v;
  }
  (*bytes)[n] = 0;
  return n;
}

static void emit(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *format, ...) {
  va_list args;
  va_start(args, format);
  pthread_mutex_lock(&out_lock);
  vfprintf(stdout, format, args);
  fputc('\n', stdout);
  fflush(stdout);
  pthread_mutex_unlock(&out_lock);
  va_end(args);
}

static char *error_text(const ticker_ws_error *e) {
  char *text = hex(e->text, strlen(e->text));
  char *host = hex(e->host, strlen(e->host));
  size_t size = strlen(text) + strlen(host) + 80;
  char *out = malloc(size);
  snprintf(out, size, "%d %lld %d %s %s", e->kind, (long long)e->code, e->retry_after, text, host);
  free(text);
  free(host);
  return out;
}

static void on_message(void *context, int32_t is_text, const uint8_t *bytes, size_t length) {
  (void)context;
  char *h = hex(bytes, length);
  emit("%s %s", is_text ? "TEXT" : "BINARY", h);
  free(h);
}

static void on_end(void *context, int32_t code, const char *reason, const ticker_ws_error *error) {
  (void)context;
  char *r = hex(reason ? reason : "", reason ? strlen(reason) : 0);
  if (error) {
    char *e = error_text(error);
    emit("END %d %s %s", code, r, e);
    free(e);
  } else {
    emit("END %d %s -", code, r);
  }
  free(r);
}

static void *handle;

static void probe_done(void *op, int32_t supported, const char *reason) {
  (void)op;
  char *r = hex(reason ? reason : "", reason ? strlen(reason) : 0);
  emit("PROBE %d %s", supported, r);
  free(r);
  sem_post(&done);
}

static void connect_done(void *op, void *connection, const ticker_ws_error *error) {
  (void)op;
  if (connection) {
    handle = connection;
    emit("OPEN");
  } else {
    char *e = error_text(error);
    emit("FAILED %s", e);
    free(e);
  }
  sem_post(&done);
}

static void send_done(void *op, const ticker_ws_error *error) {
  (void)op;
  if (!error) {
    emit("SENT");
  } else {
    char *e = error_text(error);
    emit("SEND-FAILED %s", e);
    free(e);
  }
  sem_post(&done);
}

static void ping_done(void *op, const ticker_ws_error *error) {
  (void)op;
  if (!error) {
    emit("PONG");
    return;
  }
  char *e = error_text(error);
  emit("PING-FAILED %s", e);
  free(e);
}

static void close_done(void *op) {
  (void)op;
  emit("CLOSED");
  sem_post(&done);
}

#define LOOKUP(type, name)                                          \
  type ws_##name = (type)dlsym(plugin, "ticker_urlsession_" #name); \
  if (!ws_##name) {                                                 \
    fprintf(stderr, "plugin_client: no ticker_urlsession_" #name "\n"); \
    return 2;                                                       \
  }

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: plugin_client PLUGIN_PATH\n");
    return 64;
  }
  void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!plugin) {
    fprintf(stderr, "plugin_client: %s\n", dlerror());
    return 2;
  }
  LOOKUP(ticker_urlsession_abi_version_fn, abi_version)
  LOOKUP(ticker_urlsession_probe_fn, probe)
  LOOKUP(ticker_urlsession_connect_fn, connect)
  LOOKUP(ticker_urlsession_send_fn, send)
  LOOKUP(ticker_urlsession_ping_fn, ping)
  LOOKUP(ticker_urlsession_close_fn, close)
  LOOKUP(ticker_urlsession_release_fn, release)
  if (ws_abi_version() != TICKER_PLUGIN_ABI_VERSION) {
    fprintf(stderr, "plugin_client: ABI version %d\n", ws_abi_version());
    return 2;
  }
  sem_init(&done, 0, 0);
  const char *names[16];
  const char *values[16];
  int64_t headers = 0;
  ticker_ws_callbacks callbacks = {NULL, on_message, on_end};
  char *line = NULL;
  size_t capacity = 0;
  while (getline(&line, &capacity, stdin) > 0) {
    line[strcspn(line, "\n")] = 0;
    char *save = NULL;
    char *command = strtok_r(line, " ", &save);
    if (!command) continue;
    if (strcmp(command, "header") == 0 && headers < 16) {
      names[headers] = strdup(strtok_r(NULL, " ", &save));
      values[headers] = strdup(save);
      headers++;
    } else if (strcmp(command, "probe") == 0) {
      ws_probe(NULL, probe_done);
      sem_wait(&done);
    } else if (strcmp(command, "connect") == 0) {
      char *url = strtok_r(NULL, " ", &save);
      double timeout = atof(strtok_r(NULL, " ", &save));
      long long size = atoll(strtok_r(NULL, " ", &save));
      ws_connect(url, names, values, headers, timeout, size, callbacks, NULL, connect_done);
      sem_wait(&done);
    } else if (strcmp(command, "text") == 0 || strcmp(command, "binary") == 0) {
      uint8_t *bytes;
      size_t n = unhex(strtok_r(NULL, " ", &save), &bytes);
      ws_send(handle, command[0] == 't', bytes, (int64_t)n, NULL, send_done);
      sem_wait(&done);
      free(bytes);
    } else if (strcmp(command, "ping") == 0) {
      ws_ping(handle, NULL, ping_done);
    } else if (strcmp(command, "close") == 0) {
      int code = atoi(strtok_r(NULL, " ", &save));
      uint8_t *reason;
      unhex(strtok_r(NULL, " ", &save), &reason);
      double timeout = atof(strtok_r(NULL, " ", &save));
      ws_close(handle, code, (const char *)reason, timeout, NULL, close_done);
      sem_wait(&done);
      free(reason);
      // As the ticker does once it is done with a connection.
      ws_release(handle);
      handle = NULL;
    } else if (strcmp(command, "quit") == 0) {
      break;
    }
  }
  fflush(stdout);
  _exit(0);
}

// The start of libcurl's `curl_version_info_data` (curl/curl.h), which has kept this layout
// since `age` 0, so that the ticker can read the protocol list of the libcurl loaded at run time
// (via dlsym) without libcurl's headers. Read-only; the fields after `protocols` are not used.
#ifndef TICKER_CURL_VERSION_H
#define TICKER_CURL_VERSION_H

typedef struct {
  int age;
  const char *version;
  unsigned int version_num;
  const char *host;
  int features;
  const char *ssl_version;
  long ssl_version_num;
  const char *libz_version;
  const char *const *protocols;  // NULL-terminated
} ticker_curl_version_info_prefix;

/// `curl_version_info`; call it with 0 for the oldest layout (CURLVERSION_FIRST) or a newer age.
typedef const ticker_curl_version_info_prefix *(*ticker_curl_version_info_fn)(int age);

#endif

#ifndef GANNET_BENCH_CCURL_SHIM_H
#define GANNET_BENCH_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift refuses; each wrapper fixes
// one argument type. Nothing else lives here.

static inline CURLcode bench_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode bench_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode bench_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode bench_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode bench_setopt_write(CURL *h, curl_write_callback f) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode bench_setopt_read(CURL *h, curl_read_callback f) {
    return curl_easy_setopt(h, CURLOPT_READFUNCTION, f);
}
static inline CURLcode bench_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode bench_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode bench_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

#endif

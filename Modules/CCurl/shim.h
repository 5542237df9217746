#ifndef GANNET_CCURL_SHIM_H
#define GANNET_CCURL_SHIM_H

#include <curl/curl.h>
#include <stddef.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift refuses
// ("Variadic function is unavailable"). Each wrapper below fixes one argument type so the call
// is type-checked on both sides; nothing else lives here.

static inline CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_easy_setopt_write_function(CURL *h, CURLoption o, curl_write_callback f) {
    return curl_easy_setopt(h, o, f);
}
static inline CURLcode ccurl_easy_setopt_read_function(CURL *h, curl_read_callback f) {
    return curl_easy_setopt(h, CURLOPT_READFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback f) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_ssl_ctx_function(CURL *h, curl_ssl_ctx_callback f) {
    return curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, f);
}
static inline CURLcode ccurl_easy_setopt_prereq_function(CURL *h, curl_prereq_callback f) {
    return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f);
}
static inline CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ccurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return curl_multi_setopt(m, o, v);
}

// curl_share_setopt is variadic too; Gannet only passes CURL_LOCK_DATA_* values (longs).
static inline CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) {
    return curl_share_setopt(s, o, v);
}

// CURLVERSION_NOW is a macro and does not import.
static inline curl_version_info_data *ccurl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif

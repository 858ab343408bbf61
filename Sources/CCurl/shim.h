#ifndef SECKIT_CCURL_SHIM_H
#define SECKIT_CCURL_SHIM_H

// libcurl's easy interface (Debian's libcurl4-openssl-dev: OpenSSL inside, so SecTLS can verify on
// the SSL_CTX curl hands to CURLOPT_SSL_CTX_FUNCTION). GCC's type-checking wrappers of
// curl_easy_setopt are macros Swift cannot see through; the table below calls the functions.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>

// SecCurl loads libcurl.so.4 on the first request that needs it (dlopen) and calls it through
// this table, never by name, so seccli links no libcurl and a Secret Service `cred get` loads none.
#define SECKIT_CURL_FUNCTIONS(X) \
    X(global_init) \
    X(easy_init) \
    X(easy_cleanup) \
    X(easy_reset) \
    X(easy_perform) \
    X(easy_setopt) \
    X(easy_getinfo) \
    X(easy_strerror) \
    X(version_info)

#define SECKIT_CURL_ENTRY(name) __typeof__(curl_##name) *name;
typedef struct {
    SECKIT_CURL_FUNCTIONS(SECKIT_CURL_ENTRY)
} SecKitCurl;
#undef SECKIT_CURL_ENTRY

/// Fills `table` with the functions of the libcurl `library` (a dlopen handle); 0 when one is
/// missing, with dlerror() telling which.
static inline int seckit_curl_resolve(void *library, SecKitCurl *table) {
#define SECKIT_CURL_RESOLVE(name) \
    if (!(table->name = (__typeof__(table->name))dlsym(library, "curl_" #name))) return 0;
    SECKIT_CURL_FUNCTIONS(SECKIT_CURL_RESOLVE)
#undef SECKIT_CURL_RESOLVE
    return 1;
}

// curl_easy_setopt and curl_easy_getinfo are C-variadic, which Swift cannot call: one
// non-variadic wrapper per argument type.
static inline CURLcode seckit_curl_setopt_long(const SecKitCurl *t, CURL *h, CURLoption o, long v) {
    return t->easy_setopt(h, o, v);
}
static inline CURLcode seckit_curl_setopt_offset(const SecKitCurl *t, CURL *h, CURLoption o, curl_off_t v) {
    return t->easy_setopt(h, o, v);
}
static inline CURLcode seckit_curl_setopt_pointer(const SecKitCurl *t, CURL *h, CURLoption o, const void *v) {
    return t->easy_setopt(h, o, v);
}
static inline CURLcode seckit_curl_setopt_write_function(const SecKitCurl *t, CURL *h, CURLoption o,
                                                         curl_write_callback v) {
    return t->easy_setopt(h, o, v);
}
static inline CURLcode seckit_curl_setopt_ssl_ctx_function(const SecKitCurl *t, CURL *h, curl_ssl_ctx_callback v) {
    return t->easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, v);
}
static inline CURLcode seckit_curl_getinfo_long(const SecKitCurl *t, CURL *h, CURLINFO i, long *v) {
    return t->easy_getinfo(h, i, v);
}

#endif

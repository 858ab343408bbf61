#ifndef SECKIT_COPENSSL_SHIM_H
#define SECKIT_COPENSSL_SHIM_H

#include <openssl/opensslv.h>

#if !defined(OPENSSL_VERSION_MAJOR) || OPENSSL_VERSION_MAJOR < 3
#error "SecKit needs OpenSSL 3.0 or newer: install libssl-dev from Debian 12 / Ubuntu 22.04 or later"
#endif

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/ssl.h>
#include <openssl/pkcs12.h>
#include <openssl/kdf.h>
#include <openssl/dh.h>
#include <openssl/bn.h>
#include <openssl/param_build.h>
#include <dlfcn.h>

// libssl is not linked (only libcrypto is, by the module map): SecTLS loads libssl.so.3 on the
// first TLS context it makes (dlopen) and calls it through this table, never by name. A process
// that negotiates nothing, `seccli cred get` on the Secret Service or the file backend above all,
// then never maps libssl nor binds its symbols at start-up (docs/performance-journal.md). Each
// entry has the exact type of the function in OpenSSL's headers, and its name.
#define SECKIT_LIBSSL_FUNCTIONS(X) \
    X(TLS_client_method) \
    X(SSL_CTX_new) \
    X(SSL_CTX_free) \
    X(SSL_CTX_ctrl) \
    X(SSL_CTX_set1_cert_store) \
    X(SSL_CTX_set_verify) \
    X(SSL_CTX_set_cert_verify_callback) \
    X(SSL_CTX_set_cert_cb) \
    X(SSL_CTX_set_security_level) \
    X(SSL_CTX_set_cipher_list) \
    X(SSL_CTX_use_certificate) \
    X(SSL_CTX_use_PrivateKey) \
    X(SSL_CTX_check_private_key) \
    X(SSL_new) \
    X(SSL_free) \
    X(SSL_set_fd) \
    X(SSL_ctrl) \
    X(SSL_set_ex_data) \
    X(SSL_get_ex_data) \
    X(SSL_get_ex_data_X509_STORE_CTX_idx) \
    X(SSL_get0_param) \
    X(SSL_set_hostflags) \
    X(SSL_set1_host) \
    X(SSL_set_verify) \
    X(SSL_connect) \
    X(SSL_read_ex) \
    X(SSL_write_ex) \
    X(SSL_peek) \
    X(SSL_shutdown) \
    X(SSL_get_error) \
    X(SSL_version) \
    X(SSL_get_verify_result) \
    X(SSL_get0_verified_chain) \
    X(SSL_get_peer_cert_chain) \
    X(SSL_get0_peer_CA_list) \
    X(SSL_get_certificate) \
    X(SSL_get_current_cipher) \
    X(SSL_CIPHER_get_name) \
    X(SSL_get_session) \
    X(SSL_SESSION_is_resumable) \
    X(SSL_alert_desc_string_long)

#define SECKIT_LIBSSL_ENTRY(name) __typeof__(name) *name;
typedef struct {
    SECKIT_LIBSSL_FUNCTIONS(SECKIT_LIBSSL_ENTRY)
} SecKitLibSSL;
#undef SECKIT_LIBSSL_ENTRY

/// Fills `table` with the functions of the libssl `library` (a dlopen handle); 0 when one is
/// missing, with dlerror() telling which.
static inline int seckit_libssl_resolve(void *library, SecKitLibSSL *table) {
#define SECKIT_LIBSSL_RESOLVE(name) \
    if (!(table->name = (__typeof__(table->name))dlsym(library, #name))) return 0;
    SECKIT_LIBSSL_FUNCTIONS(SECKIT_LIBSSL_RESOLVE)
#undef SECKIT_LIBSSL_RESOLVE
    return 1;
}

#endif

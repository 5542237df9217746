#ifndef GANNET_COPENSSL_SHIM_H
#define GANNET_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/sha.h>
#include <openssl/bio.h>
#include <openssl/ocsp.h>

// The STACK_OF(X509) accessors and OPENSSL_free are macros that do not import into Swift.
static inline int copenssl_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *copenssl_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline STACK_OF(X509) *copenssl_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int copenssl_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void copenssl_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }
static inline void copenssl_free(void *p) { OPENSSL_free(p); }

// SSL_CTX_set_mode, SSL_CTX_set_session_cache_mode and BIO_get_mem_data are macros.
static inline long copenssl_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
static inline long copenssl_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline long copenssl_SSL_get_tlsext_status_ocsp_resp(SSL *s, unsigned char **resp) {
    return SSL_get_tlsext_status_ocsp_resp(s, resp);
}
static inline long copenssl_SSL_set_tlsext_status_type(SSL *s, int type) {
    return SSL_set_tlsext_status_type(s, type);
}
// Asks for a stapled OCSP response on every connection of the context (a macro over SSL_CTX_ctrl);
// SSL_new copies it to the connection, so it is set before curl creates the SSL.
static inline long copenssl_SSL_CTX_set_tlsext_status_type(SSL_CTX *ctx, int type) {
    return SSL_CTX_set_tlsext_status_type(ctx, type);
}
// The status callback is a macro over SSL_CTX_callback_ctrl, whose untyped function pointer
// Swift cannot pass; this gives it its real type.
static inline long copenssl_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, int (*cb)(SSL *, void *)) {
    return SSL_CTX_set_tlsext_status_cb(ctx, cb);
}
// The status callback's argument is a macro over SSL_CTX_ctrl (a void * passed as parg).
static inline long copenssl_SSL_CTX_set_tlsext_status_arg(SSL_CTX *ctx, void *arg) {
    return SSL_CTX_set_tlsext_status_arg(ctx, arg);
}
// Whether the connection asked for a stapled response (a macro over SSL_ctrl), so the certificate
// verify callback defers only when the status callback will run.
static inline long copenssl_SSL_get_tlsext_status_type(SSL *s) {
    return SSL_get_tlsext_status_type(s);
}

// A connection's SSL_CTX carries Gannet's record of it (docs/engine.md, "TLS"): an ex_data
// slot whose free function runs when libcurl frees the context with the connection. The
// index allocator is a macro over CRYPTO_get_ex_new_index.
static inline int copenssl_SSL_CTX_get_ex_new_index(CRYPTO_EX_free *free_func) {
    return SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, free_func);
}
// SSL_OP_NO_RENEGOTIATION is a macro built from SSL_OP_BIT, which Swift does not import.
static inline uint64_t copenssl_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }


#endif

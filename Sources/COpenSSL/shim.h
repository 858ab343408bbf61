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

#endif

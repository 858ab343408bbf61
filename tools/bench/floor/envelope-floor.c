/*
 * The C floor for seckit-bench's envelope round trips (jwe-dir-a256gcm-1024, fernet-1024): seal a
 * random 1 KiB payload and open it again, in plain C on libcrypto, checking the opened bytes. A tool,
 * not a test; see "Envelope round trips" in docs/performance-journal.md.
 *
 *   cc -O2 tools/bench/floor/envelope-floor.c -o /tmp/envelope-floor -lcrypto
 *   /tmp/envelope-floor jwe|fernet MODE COUNT     # prints round trips/s and microseconds per round trip
 *
 * Both formats as SecEnvelope writes them: JWE compact {"alg":"dir","enc":"A256GCM"} (the header
 * base64url-encoded on every seal, a random 12-byte IV, the header's base64url as AAD); Fernet
 * 0x80 ‖ time ‖ random IV ‖ AES-128-CBC ‖ HMAC-SHA256, base64url with padding. Opening splits the
 * token, decodes every part, checks the header (by comparing its bytes with the expected JSON: no
 * JSON parser, which a library needs) or the HMAC (CRYPTO_memcmp), decrypts and compares.
 *
 * MODE 0: like SecCrypto's CipherContext: a new EVP_CIPHER_CTX per seal and per open (new, init with
 *         the cipher, [GCM: set the IV length], init with key and IV, set padding, ..., free); the
 *         cipher fetched once. HMAC like SecCrypto's MACContext: EVP_MAC_CTX_dup of a template whose
 *         digest was set once, EVP_MAC_init with the key, update, final, free.
 * MODE 1: one EVP_CIPHER_CTX (and one EVP_MAC_CTX) reused for everything, re-initialised with the key
 *         and IV (key schedule recomputed) each time: what is left without per-operation allocation.
 * Under callgrind, (Ir at COUNT2 - Ir at COUNT1) / (COUNT2 - COUNT1) is the cost of one round trip.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PAYLOAD = 1024 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what) {
    fprintf(stderr, "envelope-floor: %s\n", what);
    exit(1);
}

static const char url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
static signed char values[256];

static size_t b64_encode(const unsigned char *in, size_t n, char *out, int pad) {
    char *o = out;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        *o++ = url[v >> 18]; *o++ = url[v >> 12 & 63]; *o++ = url[v >> 6 & 63]; *o++ = url[v & 63];
    }
    if (n - i == 1) {
        unsigned v = (unsigned)in[i] << 16;
        *o++ = url[v >> 18]; *o++ = url[v >> 12 & 63];
        if (pad) { *o++ = '='; *o++ = '='; }
    } else if (n - i == 2) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8;
        *o++ = url[v >> 18]; *o++ = url[v >> 12 & 63]; *o++ = url[v >> 6 & 63];
        if (pad) *o++ = '=';
    }
    return o - out;
}

/* Decodes base64url (padding optional); -1 on any invalid character. Not canonical-checked. */
static long b64_decode(const char *in, size_t n, unsigned char *out) {
    while (n > 0 && in[n - 1] == '=') n--;
    unsigned char *o = out;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        int a = values[(unsigned char)in[i]], b = values[(unsigned char)in[i + 1]];
        int c = values[(unsigned char)in[i + 2]], d = values[(unsigned char)in[i + 3]];
        if ((a | b | c | d) < 0) return -1;
        unsigned v = (unsigned)a << 18 | (unsigned)b << 12 | (unsigned)c << 6 | (unsigned)d;
        *o++ = v >> 16; *o++ = v >> 8; *o++ = v;
    }
    size_t rest = n - i;
    if (rest == 1) return -1;
    if (rest >= 2) {
        int a = values[(unsigned char)in[i]], b = values[(unsigned char)in[i + 1]];
        int c = rest == 3 ? values[(unsigned char)in[i + 2]] : 0;
        if ((a | b | c) < 0) return -1;
        unsigned v = (unsigned)a << 18 | (unsigned)b << 12 | (unsigned)c << 6;
        *o++ = v >> 16;
        if (rest == 3) *o++ = v >> 8;
    }
    return o - out;
}

static EVP_CIPHER *gcm, *cbc;
static EVP_MAC *hmac;
static EVP_CIPHER_CTX *shared;
static EVP_MAC_CTX *shared_mac, *mac_template;
static int mode;

static EVP_CIPHER_CTX *cipher_context(const EVP_CIPHER *cipher, const unsigned char *key, const unsigned char *iv,
                                      int iv_length, int enc, int padding) {
    EVP_CIPHER_CTX *context = mode == 0 ? EVP_CIPHER_CTX_new() : shared;
    if (context == NULL || !EVP_CipherInit_ex2(context, cipher, NULL, NULL, enc, NULL)) die("cipher init");
    if (cipher == gcm && !EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, iv_length, NULL)) die("set IV length");
    if (!EVP_CipherInit_ex2(context, NULL, key, iv, enc, NULL) || !EVP_CIPHER_CTX_set_padding(context, padding)) die("key");
    return context;
}

static void done(EVP_CIPHER_CTX *context) {
    if (mode == 0) EVP_CIPHER_CTX_free(context);
}

static void mac(const unsigned char *key, const unsigned char *in, size_t n, unsigned char out[32]) {
    EVP_MAC_CTX *context = mode == 0 ? EVP_MAC_CTX_dup(mac_template) : shared_mac;
    size_t length;
    if (context == NULL || !EVP_MAC_init(context, key, 16, NULL) || !EVP_MAC_update(context, in, n)
        || !EVP_MAC_final(context, out, &length, 32)) die("HMAC");
    if (mode == 0) EVP_MAC_CTX_free(context);
}

static const char header_json[] = "{\"alg\":\"dir\",\"enc\":\"A256GCM\"}";

/* JWE compact, dir + A256GCM: returns a malloc'd NUL-terminated token. */
static char *jwe_seal(const unsigned char key[32], const unsigned char *payload, size_t n) {
    size_t header_length = sizeof header_json - 1;
    char *token = malloc((header_length + 2) / 3 * 4 + 4 + 16 + (n + 2) / 3 * 4 + 24 + 1);
    size_t at = b64_encode((const unsigned char *)header_json, header_length, token, 0);
    size_t aad_length = at;
    unsigned char iv[12], tag[16], *ciphertext = malloc(n + 16);
    int length, final;
    if (RAND_bytes(iv, sizeof iv) != 1) die("RAND_bytes");
    EVP_CIPHER_CTX *context = cipher_context(gcm, key, iv, sizeof iv, 1, 0);
    if (!EVP_CipherUpdate(context, NULL, &length, (const unsigned char *)token, (int)aad_length)
        || !EVP_CipherUpdate(context, ciphertext, &length, payload, (int)n)
        || !EVP_CipherFinal_ex(context, ciphertext + length, &final)
        || !EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, sizeof tag, tag)) die("GCM seal");
    done(context);
    token[at++] = '.';
    token[at++] = '.';
    at += b64_encode(iv, sizeof iv, token + at, 0);
    token[at++] = '.';
    at += b64_encode(ciphertext, length + final, token + at, 0);
    token[at++] = '.';
    at += b64_encode(tag, sizeof tag, token + at, 0);
    token[at] = 0;
    free(ciphertext);
    return token;
}

/* Returns the plaintext length in out, or -1. */
static long jwe_open(const unsigned char key[32], const char *token, unsigned char *out) {
    const char *dots[4];
    const char *p = token;
    for (int i = 0; i < 4; i++) {
        p = strchr(p, '.');
        if (p == NULL) return -1;
        dots[i] = p++;
    }
    if (strchr(p, '.') != NULL) return -1;
    size_t n = strlen(token);
    unsigned char header[64], iv[16], tag[24];
    unsigned char *ciphertext = malloc(n);
    long header_length = dots[0] - token < 80 ? b64_decode(token, dots[0] - token, header) : -1;
    if (header_length != sizeof header_json - 1 || memcmp(header, header_json, header_length) != 0) return -1;
    if (dots[1] != dots[0] + 1) return -1;
    long iv_length = dots[2] - dots[1] - 1 <= 20 ? b64_decode(dots[1] + 1, dots[2] - dots[1] - 1, iv) : -1;
    long ciphertext_length = b64_decode(dots[2] + 1, dots[3] - dots[2] - 1, ciphertext);
    long tag_length = token + n - dots[3] - 1 <= 24 ? b64_decode(dots[3] + 1, token + n - dots[3] - 1, tag) : -1;
    if (iv_length != 12 || ciphertext_length < 0 || tag_length != 16) { free(ciphertext); return -1; }
    int length, final;
    EVP_CIPHER_CTX *context = cipher_context(gcm, key, iv, 12, 0, 0);
    int ok = EVP_CipherUpdate(context, NULL, &length, (const unsigned char *)token, (int)(dots[0] - token))
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, 16, tag)
        && EVP_CipherUpdate(context, out, &length, ciphertext, (int)ciphertext_length)
        && EVP_CipherFinal_ex(context, out + length, &final);
    done(context);
    free(ciphertext);
    return ok ? length + final : -1;
}

static char *fernet_seal(const unsigned char key[32], const unsigned char *payload, size_t n) {
    size_t raw_length = 25 + (n / 16 + 1) * 16 + 32;
    unsigned char *raw = malloc(raw_length);
    raw[0] = 0x80;
    unsigned long long t = (unsigned long long)time(NULL);
    for (int i = 0; i < 8; i++) raw[1 + i] = (unsigned char)(t >> (56 - 8 * i));
    if (RAND_bytes(raw + 9, 16) != 1) die("RAND_bytes");
    int length, final;
    EVP_CIPHER_CTX *context = cipher_context(cbc, key + 16, raw + 9, 16, 1, 1);
    if (!EVP_CipherUpdate(context, raw + 25, &length, payload, (int)n) || !EVP_CipherFinal_ex(context, raw + 25 + length, &final))
        die("CBC encrypt");
    done(context);
    size_t signed_length = 25 + length + final;
    mac(key, raw, signed_length, raw + signed_length);
    char *token = malloc((signed_length + 32 + 2) / 3 * 4 + 1);
    token[b64_encode(raw, signed_length + 32, token, 1)] = 0;
    free(raw);
    return token;
}

static long fernet_open(const unsigned char key[32], const char *token, unsigned char *out) {
    size_t n = strlen(token);
    unsigned char *raw = malloc(n);
    long raw_length = b64_decode(token, n, raw);
    long ciphertext_length = raw_length - 25 - 32;
    if (raw_length < 0 || raw[0] != 0x80 || ciphertext_length < 16 || ciphertext_length % 16) { free(raw); return -1; }
    unsigned char expected[32];
    mac(key, raw, raw_length - 32, expected);
    if (CRYPTO_memcmp(expected, raw + raw_length - 32, 32) != 0) { free(raw); return -1; }
    int length, final;
    EVP_CIPHER_CTX *context = cipher_context(cbc, key + 16, raw + 9, 16, 0, 1);
    int ok = EVP_CipherUpdate(context, out, &length, raw + 25, (int)ciphertext_length) && EVP_CipherFinal_ex(context, out + length, &final);
    done(context);
    free(raw);
    return ok ? length + final : -1;
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "jwe") != 0 && strcmp(argv[1], "fernet") != 0)) {
        fprintf(stderr, "usage: %s jwe|fernet MODE(0|1) COUNT\n", argv[0]);
        return 2;
    }
    int jwe = strcmp(argv[1], "jwe") == 0;
    mode = atoi(argv[2]);
    long count = atol(argv[3]);
    memset(values, -1, sizeof values);
    for (int i = 0; i < 64; i++) values[(unsigned char)url[i]] = (signed char)i;
    gcm = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    cbc = EVP_CIPHER_fetch(NULL, "AES-128-CBC", NULL);
    hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    shared = EVP_CIPHER_CTX_new();
    shared_mac = hmac ? EVP_MAC_CTX_new(hmac) : NULL;
    mac_template = hmac ? EVP_MAC_CTX_new(hmac) : NULL;
    if (gcm == NULL || cbc == NULL || hmac == NULL || shared == NULL || shared_mac == NULL || mac_template == NULL) die("fetch");
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0), OSSL_PARAM_construct_end()};
    if (!EVP_MAC_CTX_set_params(shared_mac, params) || !EVP_MAC_CTX_set_params(mac_template, params)) die("HMAC digest");
    unsigned char key[32], payload[PAYLOAD], opened[PAYLOAD + 16];
    for (int i = 0; i < 32; i++) key[i] = (unsigned char)(i * 31 + 9);
    if (RAND_bytes(payload, sizeof payload) != 1) die("RAND_bytes");
    unsigned sink = 0;
    double start = now();
    for (long i = 0; i < count; i++) {
        char *token = jwe ? jwe_seal(key, payload, sizeof payload) : fernet_seal(key, payload, sizeof payload);
        long n = jwe ? jwe_open(key, token, opened) : fernet_open(key, token, opened);
        if (n != PAYLOAD || memcmp(opened, payload, PAYLOAD) != 0) die("opened bytes differ");
        sink += (unsigned char)token[40];
        free(token);
    }
    double elapsed = now() - start;
    printf("%s mode %d: %.0f round trips/s, %.3f us per round trip (sink %u)\n", argv[1], mode, count / elapsed,
           elapsed / count * 1e6, sink);
    return 0;
}

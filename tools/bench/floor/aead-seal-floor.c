/*
 * The C floor for one AEAD seal per 16 KiB message (AES-256-GCM or ChaCha20-Poly1305), for comparing
 * with seckit-bench's aes-256-gcm-seal-16384 and chacha20-poly1305-seal-16384 (see "AES-GCM seal
 * profile" and "ChaChaPoly seal" in docs/performance-journal.md). A tool, not a test.
 *
 *   cc -O2 tools/bench/floor/aead-seal-floor.c -o /tmp/aead-seal-floor -lcrypto
 *   /tmp/aead-seal-floor MODE COUNT [CIPHER]   # CIPHER: aes-256-gcm (default) or chacha20-poly1305;
 *                                              # prints MB/s and microseconds per message
 *   /tmp/aead-seal-floor MODE -S [CIPHER]      # as many messages as S seconds of CPU time take
 *                                              # (what tools/bench/run's throughput part runs)
 *
 * MODE 0: SecCrypto's seal on a key's kept context: one context keyed once; per message re-init with
 *         the nonce only, 13-byte AAD, update, final, get the tag.
 * MODE 1: what SecCrypto's CipherContext did per AES.GCM.seal before keys kept their context: new
 *         context, init with the cipher, set the IV length, init with key and IV, set padding, AAD,
 *         update, final, get the tag, free.
 * MODE 2: mode 1 plus what Foundation's Data added then: a zero-filled 16 KiB output buffer and one
 *         16 KiB copy of the ciphertext (SealedBox's Data(ciphertext)).
 * MODE 3: streaming, what `openssl speed -evp aes-256-gcm` and seckit-bench's aes-256-gcm-16384 do, and
 *         what OpenSSL 3.0's `openssl speed -aead -evp chacha20-poly1305` does too (its AEAD loop is for
 *         the GCM, CCM, OCB and SIV modes only): one keyed context, EVP_EncryptUpdate of each 16 KiB
 *         message, no nonce, AAD, final or tag per message.
 * MODE 4: the loop `openssl speed -aead` runs for GCM (EVP_Update_loop_aead_enc), per message: set
 *         the IV length, init with key and nonce, 13-byte AAD, update in place, final; no tag read.
 * Under callgrind, (Ir at COUNT2 - Ir at COUNT1) / (COUNT2 - COUNT1) is the cost of one message.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MESSAGE = 16384 };

/* CPU time of the process, as the bench reads seckit-bench's and openssl speed's: on a machine that other
 * work shares, wall-clock time would count the time the process waited for a core. */
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s MODE(0|1|2|3|4) COUNT [aes-256-gcm|chacha20-poly1305]\n", argv[0]);
        return 2;
    }
    int mode = atoi(argv[1]);
    long count = atol(argv[2]);
    unsigned char key[32], iv[12], aad[13], tag[16], last[16];
    memset(key, 3, sizeof key);
    memset(iv, 5, sizeof iv);
    memset(aad, 0xcc, sizeof aad);
    unsigned char *in = malloc(MESSAGE), *out = malloc(MESSAGE + 16);
    memset(in, 1, MESSAGE);
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, argc == 4 ? argv[3] : "aes-256-gcm", NULL);
    EVP_CIPHER_CTX *keyed = EVP_CIPHER_CTX_new();
    if (cipher == NULL || keyed == NULL || !EVP_CipherInit_ex2(keyed, cipher, key, iv, 1, NULL)) return 1;
    int length;
    unsigned sink = 0;
    double start = now();
    /* COUNT < 0: -COUNT seconds, the clock read every 256 messages (about a millisecond). */
    double seconds = count < 0 ? -count : 0;
    for (long i = 0; count < 0 || i < count; i++) {
        if (count < 0 && i % 256 == 0 && now() - start >= seconds) {
            count = i;
            break;
        }
        if (mode == 3) {
            /* A new IV after each GiB keeps far below GCM's limit of 2^36 - 32 bytes per nonce. */
            if (i % 65536 == 0) EVP_EncryptInit_ex(keyed, NULL, NULL, NULL, iv);
            EVP_EncryptUpdate(keyed, out, &length, in, MESSAGE);
        } else if (mode == 4) {
            EVP_CIPHER_CTX_ctrl(keyed, EVP_CTRL_AEAD_SET_IVLEN, sizeof iv, NULL);
            EVP_CipherInit_ex(keyed, NULL, NULL, key, iv, -1);
            EVP_EncryptUpdate(keyed, NULL, &length, aad, sizeof aad);
            EVP_EncryptUpdate(keyed, in, &length, in, MESSAGE);
            EVP_EncryptFinal_ex(keyed, in, &length);
        } else if (mode == 0) {
            EVP_EncryptInit_ex(keyed, NULL, NULL, NULL, iv);
            EVP_EncryptUpdate(keyed, NULL, &length, aad, sizeof aad);
            EVP_EncryptUpdate(keyed, out, &length, in, MESSAGE);
            EVP_EncryptFinal_ex(keyed, out + length, &length);
            EVP_CIPHER_CTX_ctrl(keyed, EVP_CTRL_AEAD_GET_TAG, sizeof tag, tag);
        } else {
            EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
            EVP_CipherInit_ex2(context, cipher, NULL, NULL, 1, NULL);
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, sizeof iv, NULL);
            EVP_CipherInit_ex2(context, NULL, key, iv, 1, NULL);
            EVP_CIPHER_CTX_set_padding(context, 1);
            EVP_CipherUpdate(context, NULL, &length, aad, sizeof aad);
            unsigned char *target = out;
            if (mode == 2) {
                target = calloc(1, MESSAGE + 16);
            }
            EVP_CipherUpdate(context, target, &length, in, MESSAGE);
            EVP_CipherFinal_ex(context, last, &length);
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, sizeof tag, tag);
            if (mode == 2) {
                unsigned char *copy = malloc(MESSAGE);
                memcpy(copy, target, MESSAGE);
                sink += copy[7];
                free(copy);
                free(target);
            }
            EVP_CIPHER_CTX_free(context);
        }
        sink += tag[0];
    }
    double elapsed = now() - start;
    printf("mode %d: %.0f MB/s, %.3f us per message (sink %u)\n", mode, count * (double)MESSAGE / elapsed / 1e6,
           elapsed / count * 1e6, sink);
    EVP_CIPHER_CTX_free(keyed);
    EVP_CIPHER_free(cipher);
    free(in);
    free(out);
    return 0;
}

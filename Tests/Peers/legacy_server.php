#!/usr/bin/env php
<?php
// Legacy-envelope peer for SecKit's interop tests. It does what the PHP server of
// "Professional iOS Network Programming" (Cox, Jones, Szumski), chapter 6, does:
// listing 6-16 decrypts a money-transfer request and verifies its MAC, listing 6-19
// encrypts and MACs the response; the two client-side modes do the iOS app's half.
// The book used mcrypt, which PHP removed in 7.2 (deprecated in 7.1); this uses
// openssl_encrypt/openssl_decrypt with OPENSSL_RAW_DATA (AES-256-CBC, PKCS#7 padding)
// and hash_hmac/hash_equals.
//
// Envelope: {"iv": base64(16-byte IV), "mac": lowercase hex HMAC-SHA256, "payload": base64(ciphertext)}
// Keys are raw bytes from the environment, e.g. a 32-character string as in the book:
// LEGACY_KEY (AES-256, exactly 32 bytes) and LEGACY_MAC_KEY (HMAC-SHA256, not empty).
//
// Usage: php legacy_server.php MODE < input > output   (nothing is added to the output)
//   decrypt-request   envelope -> transfer JSON  (mac over toAccount.fromAccount.amount.transferDate)
//   encrypt-response  plaintext -> envelope      (mac over the plaintext)
//   encrypt-request   transfer JSON -> envelope  (PHP as the client; mac over the fields as above)
//   decrypt-response  envelope -> plaintext      (PHP as the client; mac over the plaintext)
// A failure exits 1 with one line on stderr; a bad mode exits 2.

const CIPHER = 'aes-256-cbc';
const TRANSFER_FIELDS = ['toAccount', 'fromAccount', 'amount', 'transferDate'];

function env_key(string $name, ?int $length): string
{
    $key = getenv($name);
    if ($key === false || $key === '' || ($length !== null && strlen($key) !== $length)) {
        // openssl_encrypt would silently zero-pad or truncate a wrong-length AES key.
        throw new RuntimeException($length === null ? "set $name" : "$name must be exactly $length bytes");
    }
    return $key;
}

function decode_json(string $text, string $what): array
{
    $value = json_decode($text, true);
    if (!is_array($value)) {
        throw new RuntimeException("$what is not a JSON object");
    }
    return $value;
}

// The book's request MAC input: the transfer's string fields concatenated with nothing between.
function transfer_mac_input(string $transferJson): string
{
    $transfer = decode_json($transferJson, 'transfer');
    $input = '';
    foreach (TRANSFER_FIELDS as $field) {
        if (!is_string($transfer[$field] ?? null)) {
            throw new RuntimeException("transfer field $field is missing or not a string");
        }
        $input .= $transfer[$field];
    }
    return $input;
}

function seal(string $plaintext, string $macInput): string
{
    $iv = random_bytes(16);
    $ciphertext = openssl_encrypt($plaintext, CIPHER, env_key('LEGACY_KEY', 32), OPENSSL_RAW_DATA, $iv);
    return json_encode([
        'iv' => base64_encode($iv),
        'mac' => hash_hmac('sha256', $macInput, env_key('LEGACY_MAC_KEY', null)),
        'payload' => base64_encode($ciphertext),
    ]);
}

function open_envelope(string $envelopeJson, callable $macInput): string
{
    $envelope = decode_json($envelopeJson, 'envelope');
    $iv = base64_decode($envelope['iv'] ?? '', true);
    $ciphertext = base64_decode($envelope['payload'] ?? '', true);
    $mac = $envelope['mac'] ?? null;
    if ($iv === false || strlen($iv) !== 16 || $ciphertext === false || !is_string($mac)) {
        throw new RuntimeException('envelope needs base64 "iv" (16 bytes), base64 "payload" and "mac"');
    }
    $plaintext = openssl_decrypt($ciphertext, CIPHER, env_key('LEGACY_KEY', 32), OPENSSL_RAW_DATA, $iv);
    if ($plaintext === false) {
        throw new RuntimeException('decryption failed');
    }
    $expected = hash_hmac('sha256', $macInput($plaintext), env_key('LEGACY_MAC_KEY', null));
    if (!hash_equals($expected, $mac)) {
        throw new RuntimeException('mac mismatch');
    }
    return $plaintext;
}

$mode = $argv[1] ?? '';
$modes = ['decrypt-request', 'encrypt-response', 'encrypt-request', 'decrypt-response'];
if (!in_array($mode, $modes, true)) {
    fwrite(STDERR, 'usage: legacy_server.php ' . implode('|', $modes) . " < input\n");
    exit(2);
}
set_error_handler(function (int $level, string $message): bool {
    throw new ErrorException($message, 0, $level);
});
try {
    $input = stream_get_contents(STDIN);
    echo match ($mode) {
        'decrypt-request' => open_envelope($input, 'transfer_mac_input'),
        'encrypt-response' => seal($input, $input),
        'encrypt-request' => seal($input, transfer_mac_input($input)),
        'decrypt-response' => open_envelope($input, fn (string $plaintext): string => $plaintext),
    };
} catch (Throwable $error) {
    fwrite(STDERR, "legacy_server $mode: " . str_replace("\n", ' ', $error->getMessage()) . "\n");
    exit(1);
}

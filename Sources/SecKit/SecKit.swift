// SecKit: the umbrella module. `import SecKit` brings in every SecKit module.
@_exported import SecCrypto
@_exported import SecEnvelope
@_exported import SecHTTPAuth
@_exported import SecHTTPAuthKeychain
@_exported import SecIO
@_exported import SecIdentities
@_exported import SecKeychain
@_exported import SecTLS

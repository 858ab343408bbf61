// SecCrypto's API takes and returns `Data`, `DataProtocol` and `ContiguousBytes`. FoundationEssentials
// provides them without the rest of Foundation (smaller start-up and memory footprint for `seccli`).
#if canImport(FoundationEssentials)
@_exported public import FoundationEssentials
#else
@_exported public import Foundation
#endif

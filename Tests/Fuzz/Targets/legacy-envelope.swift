import SecCrypto
import SecEnvelope

// The legacy {iv, mac, payload} envelope opened with the seeds' keys, both MAC inputs.
private let envelope = try! LegacyEnvelope(
    encryptionKey: SymmetricKey(data: Array(0..<32) as [UInt8]),
    macKey: SymmetricKey(data: Array(32..<64) as [UInt8])
)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let macInput: LegacyEnvelope.MACInput =
        input.choose(among: 2) == 0 ? .plaintext : .fields(["toAccount", "fromAccount", "amount", "transferDate"])
    _ = try? envelope.open(input.bytes, macInput: macInput)
    return 0
}

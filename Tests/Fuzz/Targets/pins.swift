import SecCrypto
import SecTLS

// Pin notations (RFC 7469, curl, fingerprints), pin lists and host patterns: what parses prints in
// a form that parses to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let text = input.text
    switch input.choose(among: 3) {
    case 0:
        if let pin = try? Pin(parsing: text) {
            require((try? Pin(parsing: pin.description)) == pin, "a pin's description parses to the pin")
        }
    case 1:
        if let pins = try? PublicKeyPin.parseList(text) {
            for pin in pins {
                require((try? PublicKeyPin(parsing: pin.rfc7469Form)) == pin, "RFC 7469 form round trip")
                require((try? PublicKeyPin(parsing: pin.curlForm)) == pin, "curl form round trip")
            }
        }
    default:
        if let pattern = try? HostPattern(text) {
            require((try? HostPattern(pattern.description)) == pattern, "a host pattern's description parses to it")
            _ = pattern.matches(text)
        }
    }
    return 0
}

/// The UTF-8 bytes of a token, without the ASCII white space around it (such as the newline that
/// ends a file or a line read from a pipe).
func trimmedTokenBytes(_ text: String) -> ArraySlice<UInt8> {
    let bytes = Array(text.utf8)
    let isWhiteSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d }
    let start = bytes.firstIndex { !isWhiteSpace($0) } ?? bytes.endIndex
    let end = bytes.lastIndex { !isWhiteSpace($0) }.map { $0 + 1 } ?? start
    return bytes[start..<end]
}

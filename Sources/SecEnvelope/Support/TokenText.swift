/// The UTF-8 bytes of a token, without the ASCII white space around it (such as the newline that
/// ends a file or a line read from a pipe).
func trimmedTokenBytes(_ text: String) -> [UInt8] {
    let isWhiteSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d }
    let utf8 = text.utf8
    guard let first = utf8.first, let last = utf8.last, isWhiteSpace(first) || isWhiteSpace(last) else {
        return Array(utf8)
    }
    let start = utf8.firstIndex { !isWhiteSpace($0) } ?? utf8.endIndex
    let end = utf8.lastIndex { !isWhiteSpace($0) }.map { utf8.index(after: $0) } ?? start
    return Array(utf8[start..<end])
}

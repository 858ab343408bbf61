extension Array where Element == UInt8 {
    /// The array cut into consecutive slices of 0, 1, 63, 64 and 65 bytes, repeating, so incremental
    /// updates cross block boundaries at every offset pattern and also see empty updates.
    public var unevenPieces: [ArraySlice<UInt8>] {
        let sizes = [0, 1, 63, 64, 65]
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < count {
            let end = Swift.min(start + sizes[pieces.count % sizes.count], count)
            pieces.append(self[start..<end])
            start = end
        }
        return pieces
    }
}

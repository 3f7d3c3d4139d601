/// Finds where the plain run of a JSON string's bytes stops, eight bytes at a time.
///
/// Most of a barkd history is the inside of strings (hex ids, invoices, timestamps), so both
/// the array streamer and the reader spend their time looking for the byte that ends a string
/// or starts an escape. Comparing one 64-bit word at a time (the "has a zero byte" test of
/// each word XORed with the byte searched) does that in a few instructions per eight bytes
/// instead of a branch per byte. The lowest flagged byte of a word is always a true match (a
/// false flag can only follow a true one, through the subtraction's borrow), so the first stop
/// found is exact.
enum JSONStringScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080
    private static let quotes: UInt64 = 0x2222_2222_2222_2222
    private static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
    private static let spaces: UInt64 = 0x2020_2020_2020_2020

    /// The offset of the first byte in `from..<to` of `base` that is a quote or a backslash,
    /// or (with `controls`) below 0x20; `to` when there is none.
    @inline(__always)
    static func stop(in base: UnsafeRawPointer, from: Int, to: Int, controls: Bool) -> Int {
        var index = from
        while index + 8 <= to {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quote = word ^ quotes, backslash = word ^ backslashes
            var found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
            if controls { found |= (word &- spaces) & ~word }
            found &= highs
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < to {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (controls && byte < 0x20) { return index }
            index += 1
        }
        return to
    }
}

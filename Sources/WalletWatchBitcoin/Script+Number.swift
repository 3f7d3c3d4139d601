extension Script {
    /// A number pushed the way Bitcoin Core's `CScript() << n` writes it, as BIP34 puts the height
    /// at the start of a coinbase's scriptSig: OP_0 for 0, OP_1NEGATE and OP_1-OP_16 for -1 and
    /// 1-16, else the minimal little-endian sign-and-magnitude bytes after their length.
    public static func push(number: Int64) -> [UInt8] {
        if number == 0 { return [opFalse] }
        if number == -1 || (1...16).contains(number) { return [UInt8(0x50 + number)] }
        var bytes: [UInt8] = []
        var magnitude = number.magnitude
        while magnitude > 0 {
            bytes.append(UInt8(magnitude & 0xff))
            magnitude >>= 8
        }
        // The top bit of the last byte is the sign: add a byte when the magnitude uses it.
        if bytes[bytes.count - 1] & 0x80 != 0 {
            bytes.append(number < 0 ? 0x80 : 0x00)
        } else if number < 0 {
            bytes[bytes.count - 1] |= 0x80
        }
        return [UInt8(bytes.count)] + bytes
    }
}

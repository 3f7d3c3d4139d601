/// BIP380's descriptor checksum: 8 characters after `#`, computed over the descriptor exactly as
/// written (so `0h` and `0'` give different checksums).
enum DescriptorChecksum {
    /// The characters a descriptor may contain, in the three groups of 32 the checksum depends on.
    static let inputCharset = Array("0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ ".utf8)
    static let checksumCharset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    private static let positions: [Int16] = {
        var table = [Int16](repeating: -1, count: 128)
        for (index, character) in inputCharset.enumerated() {
            table[Int(character)] = Int16(index)
        }
        return table
    }()

    /// The checksum of `descriptor` (written without `#...`), or nil when it holds a character
    /// outside BIP380's character set.
    static func checksum(_ descriptor: String) -> String? {
        guard let symbols = expand(Array(descriptor.utf8)) else { return nil }
        let check = polymod(symbols + [0, 0, 0, 0, 0, 0, 0, 0]) ^ 1
        let characters = (0..<8).map { checksumCharset[Int((check >> (5 * (7 - UInt64($0)))) & 31)] }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The 0-based offset of the first byte of `bytes` outside the character set, if any.
    static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.firstIndex { $0 >= 128 || positions[Int($0)] < 0 }
    }

    private static func expand(_ bytes: [UInt8]) -> [UInt64]? {
        var symbols = [UInt64]()
        var groups = [UInt64]()
        for byte in bytes {
            guard byte < 128, positions[Int(byte)] >= 0 else { return nil }
            let value = UInt64(positions[Int(byte)])
            symbols.append(value & 31)
            groups.append(value >> 5)
            if groups.count == 3 {
                symbols.append(groups[0] * 9 + groups[1] * 3 + groups[2])
                groups = []
            }
        }
        if groups.count == 1 {
            symbols.append(groups[0])
        } else if groups.count == 2 {
            symbols.append(groups[0] * 3 + groups[1])
        }
        return symbols
    }

    private static func polymod(_ symbols: [UInt64]) -> UInt64 {
        let generator: [UInt64] = [0xf5_dee5_1989, 0xa9_fdca_3312, 0x1b_ab10_e32d, 0x37_06b1_677a, 0x64_4d62_6ffd]
        var check: UInt64 = 1
        for value in symbols {
            let top = check >> 35
            check = (check & 0x7_ffff_ffff) << 5 ^ value
            for bit in 0..<5 where (top >> UInt64(bit)) & 1 == 1 {
                check ^= generator[bit]
            }
        }
        return check
    }
}

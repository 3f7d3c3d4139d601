import Foundation
import Testing
@testable import WalletWatchCore

/// XXH64 against the reference implementation: the digests below were computed with Debian 12's
/// python3-xxhash 3.2.0-1+b1 (the `xxhash` module 3.0.0 over the reference C library libxxhash
/// 0.8.1): `xxhash.xxh64(data, seed=s).hexdigest()`, with the inputs written out in each case.
@Suite("XXH64")
struct XXH64Tests {
    /// 256 bytes 0 to 255, four times, then "xyz": 1,027 bytes, 32 stripes and a tail of 3.
    static let long = Array((0..<4).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8)

    static let vectors: [(input: [UInt8], seed0: String, seed2654435761: String)] = [
        ([], "ef46db3751d8e999", "ac75fda2929b17ef"),
        (Array("a".utf8), "d24ec4f1a98c6e5b", "393da8b78992279b"),
        (Array("abc".utf8), "44bc2cf5ad770999", "1318df30094a85fd"),
        (Array("0123456789abcdef0123456789abcdef".utf8), "642a94958e71e6c5", "dfad85ccf8285222"),
        (long, "e146cb31b65bc21a", "8a66b45747ef9df4"),
    ]

    func digest(_ bytes: [UInt8], seed: UInt64 = 0, pieces: Int = 1) -> String {
        var hasher = XXH64(seed: seed)
        bytes.withUnsafeBytes { all in
            var start = 0
            let size = max(1, (all.count + pieces - 1) / pieces)
            while start < all.count {
                let end = min(all.count, start + size)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return hasher.hexDigest()
    }

    @Test("digests equal the reference library's, at once or fed in pieces of any size")
    func referenceVectors() {
        for vector in Self.vectors {
            #expect(digest(vector.input) == vector.seed0, "\(vector.input.count) bytes")
            #expect(digest(vector.input, seed: 2_654_435_761) == vector.seed2654435761, "\(vector.input.count) bytes, seeded")
            for pieces in [2, 3, 7, 33, 1027] {
                #expect(digest(vector.input, pieces: pieces) == vector.seed0, "\(vector.input.count) bytes in \(pieces) pieces")
            }
        }
        #expect(Self.long.withUnsafeBytes { XXH64.hash($0) } == 0xe146_cb31_b65b_c21a)
    }

    @Test("one byte changed anywhere changes the digest")
    func sensitivity() {
        let base = digest(Self.long)
        for position in stride(from: 0, to: Self.long.count, by: 13) {
            var changed = Self.long
            changed[position] ^= 1
            #expect(digest(changed) != base, "byte \(position)")
        }
        #expect(digest(Self.long + [0]) != base)
    }
}

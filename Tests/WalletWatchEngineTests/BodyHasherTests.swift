import Testing
@testable import WalletWatchEngine

/// The body digest against XXH3 as computed elsewhere: the digests below come from Debian 12's
/// python3-xxhash 3.2.0-1+b1 (the `xxhash` module 3.0.0, xxHash 0.8.1):
/// `xxhash.xxh3_64(data).hexdigest()`, with the inputs written out in each case. The empty
/// input's digest is also the one in xxHash's own documentation (2D06800538D394C2).
@Suite("Body digest (XXH3)")
struct BodyHasherTests {
    /// 256 bytes 0 to 255, four times, then "xyz".
    static let long = Array((0..<4).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8)
    /// 300,000 bytes, (i * 31 + 7) mod 256: longer than XXH3's 1,024-byte blocks and its internal buffer.
    static let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    static let vectors: [(input: [UInt8], digest: String)] = [
        ([], "2d06800538d394c2"),
        (Array("a".utf8), "e6c632b61e964e1f"),
        (Array("abc".utf8), "78af5f94892f3950"),
        (Array("0123456789abcdef0123456789abcdef".utf8), "01121d5b6c0ac055"),
        ((0..<240).map { UInt8($0) }, "375a384d957fe865"),
        (long, "fcda6eebc21f2ff1"),
        (big, "e60b7efae23d661d"),
    ]

    func digest(_ bytes: [UInt8], pieces: Int = 1) -> String {
        let hasher = BodyHasher()
        bytes.withUnsafeBytes { all in
            var start = 0
            let size = max(1, (all.count + pieces - 1) / pieces)
            while start < all.count {
                let end = min(all.count, start + size)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return hasher.named()
    }

    @Test("digests equal the reference library's, named xxh3, at once or fed in pieces of any size")
    func referenceVectors() {
        for vector in Self.vectors {
            #expect(digest(vector.input) == "xxh3:" + vector.digest, "\(vector.input.count) bytes")
            for pieces in [2, 3, 7, 33, 1027] where pieces <= max(1, vector.input.count) {
                #expect(digest(vector.input, pieces: pieces) == "xxh3:" + vector.digest, "\(vector.input.count) bytes in \(pieces) pieces")
            }
            #expect(vector.input.withUnsafeBytes { BodyHasher.named($0) } == "xxh3:" + vector.digest)
        }
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

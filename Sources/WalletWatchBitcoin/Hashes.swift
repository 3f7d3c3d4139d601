import COpenSSLCrypto
import Crypto

/// The hash functions Bitcoin's scripts, addresses and BIP32 derivation are built from.
enum Hashes {
    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// SHA-256 applied twice: the checksum of Base58Check.
    static func doubleSHA256(_ bytes: [UInt8]) -> [UInt8] {
        sha256(sha256(bytes))
    }

    /// RIPEMD-160 of `bytes`, from OpenSSL's libcrypto (swift-crypto has no RIPEMD-160).
    static func ripemd160(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                copenssl_ripemd160(input.baseAddress, input.count, output.baseAddress)
            }
        }
        // Only a libcrypto built without RIPEMD-160 fails here; carrying on would derive wrong
        // addresses, which is worse than stopping.
        precondition(ok == 1, "libcrypto has no RIPEMD-160 (OpenSSL's default provider is missing)")
        return digest
    }

    /// RIPEMD-160 of SHA-256: the key and script hashes inside P2PKH, P2SH and P2WPKH.
    static func hash160(_ bytes: [UInt8]) -> [UInt8] {
        ripemd160(sha256(bytes))
    }

    /// HMAC-SHA512 of `message` under `key`: BIP32's child key function.
    static func hmacSHA512(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA512>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// BIP340's tagged hash: SHA-256(SHA-256(tag) || SHA-256(tag) || message).
    static func taggedHash(_ tag: String, _ message: [UInt8]) -> [UInt8] {
        let tagHash = sha256(Array(tag.utf8))
        var hasher = SHA256()
        hasher.update(data: tagHash)
        hasher.update(data: tagHash)
        hasher.update(data: message)
        return Array(hasher.finalize())
    }
}

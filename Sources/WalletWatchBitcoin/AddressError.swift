/// Why a string is not an address of the expected network. Its `description` quotes the input,
/// except when the input is a private key, which is never repeated.
public struct AddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// Not an address of any kind; the detail says why.
        case notAnAddress(String)
        /// A segwit address whose Bech32 form is broken (checksum, character, case, length).
        case bech32(Bech32Error)
        /// A legacy address whose Base58Check form is broken.
        case base58(Base58Error)
        /// A valid address of other networks (named) than the one expected.
        case wrongNetwork(of: String, expected: Network)
        /// A segwit address without data after its prefix.
        case noWitnessVersion
        /// A witness version above 16.
        case invalidWitnessVersion(Int)
        /// Bech32 for version 1 and above, or Bech32m for version 0 (BIP350).
        case wrongChecksumForVersion(version: UInt8, used: Bech32Encoding)
        /// The witness program's last 5-bit group leaves invalid padding.
        case invalidPadding(String)
        /// A witness program outside 2-40 bytes, or of version 0 and not 20 or 32 bytes.
        case invalidProgramLength(version: UInt8, length: Int)
        /// A private key (WIF or extended: `xprv`, `tprv`...) where an address was expected.
        case privateKey(kind: String)
        /// An extended public key where an address was expected.
        case extendedPublicKey(ExtendedKeyVersion)
    }

    /// What is wrong.
    public let reason: Reason
    /// The input, shortened for messages; empty when it is a private key.
    private let shown: String

    init(_ input: String, _ reason: Reason) {
        self.reason = reason
        if case .privateKey = reason {
            shown = ""
        } else {
            shown = input.count > 100 ? String(input.prefix(97)) + "..." : input
        }
    }

    public var description: String {
        switch reason {
        case .privateKey(let kind):
            return "a private key (\(kind)) was given where an address was expected; walletwatch never takes private keys"
        case .extendedPublicKey(let version):
            return "'\(shown)' is an extended public key (\(version)), not an address; give it as `xpub` or in a descriptor"
        default:
            return "'\(shown)' \(phrase)"
        }
    }

    private var phrase: String {
        switch reason {
        case .notAnAddress(let detail):
            "is not a bitcoin address (\(detail))"
        case .bech32(let error):
            switch error.reason {
            case .checksumMismatch: "does not decode: \(error)"
            default: "\(error)"
            }
        case .base58(let error):
            "does not decode: \(error)"
        case .wrongNetwork(let of, let expected):
            "is an address for \(of), not \(expected)"
        case .noWitnessVersion:
            "has no witness version after its prefix"
        case .invalidWitnessVersion(let version):
            "has witness version \(version); versions are 0-16"
        case .wrongChecksumForVersion(let version, let used):
            "uses the \(used.displayName) checksum; witness version \(version) needs \(version == 0 ? "Bech32" : "Bech32m") (BIP350)"
        case .invalidPadding(let detail):
            "has an invalid witness program: \(detail)"
        case .invalidProgramLength(let version, let length):
            if version == 0 && (2...40).contains(length) {
                "has a witness program of \(length) bytes; version 0 needs 20 or 32"
            } else {
                "has a witness program of \(length) bytes; it must have 2-40"
            }
        case .privateKey, .extendedPublicKey:
            ""
        }
    }
}

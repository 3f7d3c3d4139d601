/// Why a descriptor is refused: where (a 1-based character position in the descriptor as written:
/// the first character is 1) and why. Private keys found in it are never repeated.
public struct DescriptorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The family of the refusal.
    public enum Kind: Sendable, Equatable {
        /// The text does not follow the descriptor grammar (BIP380-386, BIP389).
        case syntax
        /// The `#checksum` is malformed or does not match.
        case checksum
        /// Valid, but outside what walletwatch watches (combo, raw, addr, pk, script trees...).
        case unsupported
        /// A private key (WIF, xprv, tprv...) is in the descriptor.
        case privateKey
        /// A hardened step after an xpub: public derivation cannot take it.
        case hardenedDerivation
        /// A key that is not a valid public key or extended public key.
        case invalidKey
        /// A key of another network than the wallet's.
        case wrongNetwork
    }

    /// The family of the refusal.
    public let kind: Kind
    /// The 1-based position of the character where the problem starts, when there is one.
    public let position: Int?
    /// What is wrong and, where it helps, what to write instead.
    public let message: String

    init(_ kind: Kind, at position: Int?, _ message: String) {
        self.kind = kind
        self.position = position
        self.message = message
    }

    public var description: String {
        position.map { "position \($0): \(message)" } ?? message
    }
}

/// Why a child key or script could not be derived.
public enum DerivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A hardened index (2^31 or above): public derivation cannot take it.
    case hardenedStep(UInt32)
    /// BIP32's rare invalid child (odds below 1 in 2^127): that index has no key and is skipped.
    case invalidChild(UInt32)
    /// A key at depth 255 has no children.
    case tooDeep
    /// The wallet has no change chain (a single descriptor without a /1/* twin or multipath).
    case noChangeChain

    public var description: String {
        switch self {
        case .hardenedStep(let index):
            "index \(index) is hardened (2^31 or above); hardened derivation needs the private key"
        case .invalidChild(let index):
            "index \(index) has no valid key (BIP32 says to skip it)"
        case .tooDeep:
            "a key at depth 255 has no children"
        case .noChangeChain:
            "the wallet has no change chain"
        }
    }
}

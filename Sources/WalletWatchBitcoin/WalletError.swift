/// Why a source's `descriptors` and `xpub` cannot form a wallet: which entry, and why.
public struct WalletError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entry the refusal is about.
    public enum Origin: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based position of a descriptor in `descriptors`.
        case descriptor(Int)
        /// The `xpub` setting.
        case xpub

        public var description: String {
            switch self {
            case .descriptor(let number): "descriptor \(number)"
            case .xpub: "xpub"
            }
        }
    }

    /// Why.
    public enum Reason: Sendable, Equatable {
        /// The descriptor itself is refused.
        case descriptor(DescriptorError)
        /// The xpub itself is refused (malformed, private, another network's).
        case extendedKey(ExtendedKeyError)
        /// A SLIP-132 multisig key (Ypub, Zpub, Upub, Vpub): one cosigner, not a wallet.
        case multisigCosignerKey(ExtendedKeyVersion)
        /// The entries are valid but do not make one wallet.
        case cannotFormWallet(String)
    }

    /// The entry concerned; nil when the refusal is about the set as a whole.
    public let origin: Origin?
    /// Why.
    public let reason: Reason

    init(_ origin: Origin?, _ reason: Reason) {
        self.origin = origin
        self.reason = reason
    }

    public var description: String {
        let prefix = origin.map { "\($0): " } ?? ""
        switch reason {
        case .descriptor(let error):
            return prefix + error.description
        case .extendedKey(let error):
            return prefix + error.description
        case .multisigCosignerKey(let version):
            return prefix + "a \(version) is one cosigner's key of a multisig wallet; write the wallet's descriptor in `descriptors` instead, e.g. wsh(sortedmulti(2,[fingerprint/48h/0h/0h/2h]xpub.../<0;1>/*,...))"
        case .cannotFormWallet(let message):
            return prefix + message
        }
    }
}

/// The 4 version bytes that open a serialized BIP32 extended key, with SLIP-132's registered
/// variants: they tell the network, public or private, and which script the key is meant for.
public enum ExtendedKeyVersion: UInt32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// BIP32 mainnet public key: P2PKH (BIP44), or any script in a descriptor.
    case xpub = 0x0488_b21e
    /// SLIP-132 mainnet public key for P2WPKH nested in P2SH (BIP49).
    case ypub = 0x049d_7cb2
    /// SLIP-132 mainnet public key for native P2WPKH (BIP84).
    case zpub = 0x04b2_4746
    /// SLIP-132 mainnet multisig cosigner key, P2WSH nested in P2SH.
    case Ypub = 0x0295_b43f
    /// SLIP-132 mainnet multisig cosigner key, native P2WSH.
    case Zpub = 0x02aa_7ed3
    /// BIP32 test-network public key.
    case tpub = 0x0435_87cf
    /// SLIP-132 test-network public key for P2WPKH nested in P2SH.
    case upub = 0x044a_5262
    /// SLIP-132 test-network public key for native P2WPKH.
    case vpub = 0x045f_1cf6
    /// SLIP-132 test-network multisig cosigner key, P2WSH nested in P2SH.
    case Upub = 0x0242_89ef
    /// SLIP-132 test-network multisig cosigner key, native P2WSH.
    case Vpub = 0x0257_5483
    /// BIP32 mainnet private key (recognised only to be refused).
    case xprv = 0x0488_ade4
    /// SLIP-132 mainnet private key, nested segwit (refused).
    case yprv = 0x049d_7878
    /// SLIP-132 mainnet private key, native segwit (refused).
    case zprv = 0x04b2_430c
    /// SLIP-132 mainnet multisig private key, nested (refused).
    case Yprv = 0x0295_b005
    /// SLIP-132 mainnet multisig private key, native (refused).
    case Zprv = 0x02aa_7a99
    /// BIP32 test-network private key (refused).
    case tprv = 0x0435_8394
    /// SLIP-132 test-network private key, nested segwit (refused).
    case uprv = 0x044a_4e28
    /// SLIP-132 test-network private key, native segwit (refused).
    case vprv = 0x045f_18bc
    /// SLIP-132 test-network multisig private key, nested (refused).
    case Uprv = 0x0242_85b5
    /// SLIP-132 test-network multisig private key, native (refused).
    case Vprv = 0x0257_5048

    /// What a SLIP-132 version says the key is for.
    public enum Purpose: Sendable, Hashable {
        /// P2PKH (and, in descriptors, any script): xpub, tpub.
        case legacy
        /// P2WPKH nested in P2SH: ypub, upub.
        case nestedSegwit
        /// Native P2WPKH: zpub, vpub.
        case nativeSegwit
        /// One cosigner of a P2WSH multisig nested in P2SH: Ypub, Upub.
        case nestedMultisig
        /// One cosigner of a native P2WSH multisig: Zpub, Vpub.
        case nativeMultisig
    }

    /// The four letters the Base58 text starts with (`xpub`, `zprv`, ...).
    public var description: String {
        switch self {
        case .xpub: "xpub"
        case .ypub: "ypub"
        case .zpub: "zpub"
        case .Ypub: "Ypub"
        case .Zpub: "Zpub"
        case .tpub: "tpub"
        case .upub: "upub"
        case .vpub: "vpub"
        case .Upub: "Upub"
        case .Vpub: "Vpub"
        case .xprv: "xprv"
        case .yprv: "yprv"
        case .zprv: "zprv"
        case .Yprv: "Yprv"
        case .Zprv: "Zprv"
        case .tprv: "tprv"
        case .uprv: "uprv"
        case .vprv: "vprv"
        case .Uprv: "Uprv"
        case .Vprv: "Vprv"
        }
    }

    /// Whether the key carries a private key.
    public var isPrivate: Bool {
        switch self {
        case .xprv, .yprv, .zprv, .Yprv, .Zprv, .tprv, .uprv, .vprv, .Uprv, .Vprv: true
        default: false
        }
    }

    /// Whether the version belongs to the test networks (testnet, signet, regtest).
    public var isTest: Bool {
        switch self {
        case .tpub, .upub, .vpub, .Upub, .Vpub, .tprv, .uprv, .vprv, .Uprv, .Vprv: true
        default: false
        }
    }

    /// The script family SLIP-132 registers the version for.
    public var purpose: Purpose {
        switch self {
        case .xpub, .tpub, .xprv, .tprv: .legacy
        case .ypub, .upub, .yprv, .uprv: .nestedSegwit
        case .zpub, .vpub, .zprv, .vprv: .nativeSegwit
        case .Ypub, .Upub, .Yprv, .Uprv: .nestedMultisig
        case .Zpub, .Vpub, .Zprv, .Vprv: .nativeMultisig
        }
    }

    /// The plain BIP32 public version of the key's network: xpub for bitcoin, tpub for the test networks.
    public var plainPublic: ExtendedKeyVersion {
        isTest ? .tpub : .xpub
    }

    /// Whether a key of this version belongs to `network`.
    public func belongs(to network: Network) -> Bool {
        isTest == network.isTest
    }
}

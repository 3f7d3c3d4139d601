/// A Bitcoin network: which address prefixes and key versions belong to it.
public enum Network: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Bitcoin's main network.
    case bitcoin
    /// The test network (testnet3 and testnet4 share every prefix).
    case testnet
    /// The signet test network.
    case signet
    /// A local regression-test network.
    case regtest

    /// The human-readable part of its segwit addresses.
    public var bech32HRP: String {
        switch self {
        case .bitcoin: "bc"
        case .testnet, .signet: "tb"
        case .regtest: "bcrt"
        }
    }

    /// The Base58Check version byte of its P2PKH addresses.
    public var p2pkhVersion: UInt8 {
        self == .bitcoin ? 0x00 : 0x6f
    }

    /// The Base58Check version byte of its P2SH addresses.
    public var p2shVersion: UInt8 {
        self == .bitcoin ? 0x05 : 0xc4
    }

    /// The version byte of its WIF private keys (recognised only to be refused).
    var wifVersion: UInt8 {
        self == .bitcoin ? 0x80 : 0xef
    }

    /// The extended public key versions it accepts: BIP32's and SLIP-132's (xpub, ypub, zpub,
    /// Ypub, Zpub on bitcoin; tpub, upub, vpub, Upub, Vpub on the test networks). Private versions
    /// are only ever recognised, to be refused.
    public var extendedPublicKeyVersions: [ExtendedKeyVersion] {
        ExtendedKeyVersion.allCases.filter { !$0.isPrivate && $0.belongs(to: self) }
    }

    /// Whether it is one of the test networks, which share their Base58 prefixes and key versions.
    public var isTest: Bool {
        self != .bitcoin
    }

    /// Its name as written in the config (`bitcoin`, `testnet`, `signet`, `regtest`).
    public var description: String {
        rawValue
    }

    /// How its name reads in an error: "bitcoin", or "testnet, signet or regtest" when the evidence
    /// (a Base58 prefix or key version) is shared by every test network.
    static func names(sharing isTest: Bool) -> String {
        isTest ? "testnet, signet or regtest" : "bitcoin"
    }

    /// The networks whose segwit addresses use `hrp`, for naming them in an error.
    static func names(usingHRP hrp: String) -> String? {
        switch hrp {
        case "bc": "bitcoin"
        case "tb": "testnet or signet"
        case "bcrt": "regtest"
        default: nil
        }
    }
}

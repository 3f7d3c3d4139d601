import WalletWatchCore

/// One entry of Fulmine's transaction history (`TransactionInfo`): an Ark payment sent or
/// received, a batch (commitment) receipt, or a boarding deposit. It has no id and no status:
/// its id is the one txid it sets (Ark's SDK keys it by the concatenation of the three, of which
/// exactly one is set), and it is settled once `settledBy` names a commitment transaction.
public struct FulmineTransaction: Hashable, Sendable {
    /// `TxType`; `TX_TYPE_UNSPECIFIED` is refused like an unknown value (it has no direction).
    public enum Kind: String, Sendable, CaseIterable {
        case sent = "TX_TYPE_SENT", received = "TX_TYPE_RECEIVED"
    }

    /// Nil for a boarding transaction still in the mempool (Fulmine sends Go's zero time).
    public var date: Instant?
    /// Unsigned; the direction is `kind`.
    public var amount: Int64
    public var kind: Kind
    public var commitmentTxid: String
    public var arkTxid: String
    public var boardingTxid: String
    public var settledBy: String

    public init(date: Instant?, amount: Int64, kind: Kind, commitmentTxid: String = "", arkTxid: String = "", boardingTxid: String = "",
                settledBy: String = "") {
        self.date = date
        self.amount = amount
        self.kind = kind
        self.commitmentTxid = commitmentTxid
        self.arkTxid = arkTxid
        self.boardingTxid = boardingTxid
        self.settledBy = settledBy
    }

    /// The one txid it sets.
    public var id: String { commitmentTxid + arkTxid + boardingTxid }

    /// A boarding deposit not yet settled into a batch: Fulmine's own page shows it as pending.
    public var isPendingBoarding: Bool { !boardingTxid.isEmpty && settledBy.isEmpty }
}

/// Fulmine's `GetInfoResponse.Network`.
enum FulmineNetwork: String, CaseIterable {
    case unspecified = "NETWORK_UNSPECIFIED", mainnet = "NETWORK_MAINNET", testnet = "NETWORK_TESTNET", regtest = "NETWORK_REGTEST"
}

/// What a Fulmine daemon or an Ark server says about itself.
public struct ArkadeInfo: Hashable, Sendable {
    /// arkd's name for the network ("bitcoin", "testnet", "regtest"...); for Fulmine, "bitcoin"
    /// or "testnet" as its address prefix says.
    public var network: String
    /// `ark` or `tark`.
    public var addressPrefix: String
    /// The server's signer key (33-byte compressed, hex); "" when not given.
    public var signerPubkey: String

    /// arkd's network names (pkg/ark-lib/network.go).
    static let arkNetworks = ["bitcoin", "testnet", "testnet4", "signet", "mutinynet", "regtest"]

    /// The address prefix of an arkd network name; nil for a name arkd does not have.
    static func addressPrefix(ofArkNetwork name: String) -> String? {
        guard arkNetworks.contains(name) else { return nil }
        return name == "bitcoin" ? "ark" : "tark"
    }

    /// As the store keeps an Ark server's info.
    public var serverInfo: ArkServerInfo {
        ArkServerInfo(network: network, serverPubkey: signerPubkey, roundInterval: "", vtxoLifetime: nil)
    }
}

/// One page of the indexer's VTXOs.
public struct IndexerPage: Hashable, Sendable {
    public struct Position: Hashable, Sendable {
        public var current: Int
        public var next: Int
        public var total: Int
    }

    public var vtxos: [ArkadeVtxo]
    /// Nil when the answer was not paged.
    public var position: Position?
}

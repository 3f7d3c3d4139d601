/// The Arkade part of a scenario:
///
/// ```json
/// "arkade": {"network": "bitcoin", "fulmine_wallets": ["arkade"],
///            "receipts": [{"wallet": "arkade", "amount": 120000, "batch": true},
///                         {"address": "ark1...", "amount": 50000}]}
/// ```
/// `network` is arkd's name (`bitcoin`, or `regtest`, `testnet`, `signet`... whose addresses
/// start `tark1`). A receipt pays a Fulmine wallet (its history records it) or any Ark address
/// of this server's network: a VTXO out of a batch (`batch`), else preconfirmed by an Ark
/// transaction.
public struct ArkadeScenario: Sendable, Codable {
    public var network: String
    public var fulmineWallets: [String]
    public var receipts: [ArkadeReceipt]

    public init(network: String = "bitcoin", fulmineWallets: [String] = [], receipts: [ArkadeReceipt] = []) {
        self.network = network
        self.fulmineWallets = fulmineWallets
        self.receipts = receipts
    }

    private enum CodingKeys: String, CodingKey {
        case network, receipts
        case fulmineWallets = "fulmine_wallets"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(network: try c.decodeIfPresent(String.self, forKey: .network) ?? "bitcoin",
                  fulmineWallets: try c.decodeIfPresent([String].self, forKey: .fulmineWallets) ?? [],
                  receipts: try c.decodeIfPresent([ArkadeReceipt].self, forKey: .receipts) ?? [])
    }
}

/// A payment into Ark: to a Fulmine `wallet` or an Ark `address`.
public struct ArkadeReceipt: Sendable, Codable {
    public var wallet: String?
    public var address: String?
    public var amount: Int64
    public var batch: Bool?

    public init(wallet: String? = nil, address: String? = nil, amount: Int64, batch: Bool? = nil) {
        self.wallet = wallet
        self.address = address
        self.amount = amount
        self.batch = batch
    }
}

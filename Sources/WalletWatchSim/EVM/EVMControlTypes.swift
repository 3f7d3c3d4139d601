/// What `GET /control/evm` answers: the chain's identity, heights and what it names.
public struct EVMChainSummary: Sendable, Codable, Hashable {
    public var chainID: Int
    public var native: String
    public var tipHeight: Int
    public var tipHash: String
    public var safe: Int
    public var finalized: Int
    public var finalityDepth: Int
    public var safeDepth: Int
    public var blockTime: Int
    public var latestTimestamp: Int64
    /// The faucet's address (the address of private key 1).
    public var faucet: EVMAddress
    /// Named accounts with their latest balance (wei, decimal).
    public var accounts: [Account]
    public var tokens: [Token]
    public var contracts: [Contract]
    /// Hashes of the transactions waiting in the mempool.
    public var mempool: [String]

    public struct Account: Sendable, Codable, Hashable {
        public var name: String
        public var address: EVMAddress
        public var balance: EVMAmount
    }

    public struct Token: Sendable, Codable, Hashable {
        public var symbol: String
        public var name: String
        public var decimals: Int
        public var address: EVMAddress
        /// The block that created it (0: genesis); nil while it has no code.
        public var createdIn: Int?

        private enum CodingKeys: String, CodingKey { case symbol, name, decimals, address, createdIn = "created_in" }
    }

    public struct Contract: Sendable, Codable, Hashable {
        public var name: String
        public var address: EVMAddress
        public var createdIn: Int?

        private enum CodingKeys: String, CodingKey { case name, address, createdIn = "created_in" }
    }

    private enum CodingKeys: String, CodingKey {
        case native, safe, finalized, faucet, accounts, tokens, contracts, mempool
        case chainID = "chain_id", tipHeight = "tip_height", tipHash = "tip_hash", finalityDepth = "finality_depth", safeDepth = "safe_depth"
        case blockTime = "block_time", latestTimestamp = "latest_timestamp"
    }

    init(_ chain: EVMChain) {
        chainID = chain.chainID
        native = chain.native
        tipHeight = chain.tip
        tipHash = chain.block(chain.tip).hash.hex
        safe = chain.safe
        finalized = chain.finalized
        finalityDepth = chain.finalityDepth
        safeDepth = chain.safeDepth
        blockTime = Int(chain.blockTime)
        latestTimestamp = chain.block(chain.tip).timestamp
        faucet = EVMChain.faucetAddress
        accounts = chain.accountNames.compactMap { name in
            chain.names[name].map { Account(name: name, address: $0, balance: EVMAmount(chain.balance(of: $0, at: chain.tip))) }
        }
        tokens = chain.tokenNames.compactMap { symbol in
            guard let address = chain.names[symbol], let contract = chain.contracts[address],
                  case .token(_, let name, let decimals, _) = contract.kind else { return nil }
            return Token(symbol: symbol, name: name, decimals: decimals, address: address, createdIn: contract.createdIn)
        }
        contracts = chain.contractNames.compactMap { name in
            chain.names[name].flatMap { chain.contracts[$0] }.map { Contract(name: name, address: $0.address, createdIn: $0.createdIn) }
        }
        mempool = chain.mempool.map(\.hash.hex)
    }

    /// The address of a named account, token or contract.
    public func address(of name: String) -> EVMAddress? {
        accounts.first { $0.name == name }?.address ?? tokens.first { $0.symbol == name }?.address
            ?? contracts.first { $0.name == name }?.address ?? (name == "faucet" ? faucet : nil)
    }
}

/// What sending a transaction answers (`POST /control/evm/transactions`): its hash and, once
/// mined, its block, status (0: reverted), gas used and fee (wei, decimal).
public struct EVMSentTransaction: Sendable, Codable, Hashable {
    public var hash: String
    public var from: EVMAddress
    public var to: EVMAddress?
    public var nonce: Int
    public var blockNumber: Int?
    public var blockHash: String?
    public var status: Int?
    public var gasUsed: Int?
    public var effectiveGasPrice: EVMAmount?
    public var fee: EVMAmount?
    public var contractAddress: EVMAddress?

    private enum CodingKeys: String, CodingKey {
        case hash, from, to, nonce, status, fee
        case blockNumber = "block_number", blockHash = "block_hash", gasUsed = "gas_used", effectiveGasPrice = "effective_gas_price"
        case contractAddress = "contract_address"
    }

    init(_ hash: EVMHash, in chain: EVMChain) {
        self.hash = hash.hex
        if let mined = chain.mined(hash) {
            let transaction = mined.transaction
            (from, to, nonce) = (transaction.from, transaction.to, transaction.nonce)
            blockNumber = mined.blockNumber
            blockHash = chain.block(mined.blockNumber).hash.hex
            status = mined.status
            gasUsed = mined.gasUsed
            effectiveGasPrice = EVMAmount(mined.effectiveGasPrice)
            fee = EVMAmount(mined.fee)
            contractAddress = mined.created
        } else {
            let transaction = chain.waiting(hash)
            from = transaction?.from ?? .zero
            to = transaction?.to
            nonce = transaction?.nonce ?? 0
        }
    }
}

/// What `POST /control/evm/mine` answers.
public struct EVMMineReply: Sendable, Codable, Hashable {
    public var tipHeight: Int
    /// The new blocks' hashes.
    public var mined: [String]
    /// The transactions they hold.
    public var transactions: [String]
    /// Transactions dropped from the mempool (their sender could not pay them, or their nonce was used).
    public var dropped: [String]

    private enum CodingKeys: String, CodingKey { case mined, transactions, dropped, tipHeight = "tip_height" }
}

/// `{"depth": N, "blocks": M, "drop": ["0x..."], "force": false}`: a reorg.
public struct EVMReorgBody: Sendable, Codable, Hashable {
    public var depth: Int
    public var blocks: Int?
    public var drop: [EVMHash]?
    public var force: Bool?

    public init(depth: Int, blocks: Int? = nil, drop: [EVMHash]? = nil, force: Bool? = nil) {
        self.depth = depth
        self.blocks = blocks
        self.drop = drop
        self.force = force
    }
}

/// `{"finality_depth": N, "safe_depth": M}`, either optional.
public struct EVMFinalityBody: Sendable, Codable, Hashable {
    public var finalityDepth: Int?
    public var safeDepth: Int?

    public init(finalityDepth: Int? = nil, safeDepth: Int? = nil) {
        self.finalityDepth = finalityDepth
        self.safeDepth = safeDepth
    }

    private enum CodingKeys: String, CodingKey { case finalityDepth = "finality_depth", safeDepth = "safe_depth" }
}

/// `{"blocks": N, "timestamp": unix}`, both optional: what `POST /control/evm/mine` mines.
struct EVMMineBody: Codable, Sendable {
    var blocks: Int?
    var timestamp: Int64?
}

/// A name and the address it stands for.
public struct EVMNamedAddress: Sendable, Codable, Hashable {
    public var name: String
    public var address: EVMAddress
}

/// One EVM chain served by the simulator's EVM face (JSON-RPC at `/evm`, Etherscan's API V2 at
/// `/etherscan/v2/api`, Blockscout's at `/blockscout/api`): the scenario's `evm` section.
///
/// ```json
/// "evm": {
///   "chain_id": 1, "native": "ETH", "block_time": 12, "finality_depth": 2,
///   "accounts": [{"name": "alice"}, {"name": "bob", "address": "0x1d96f2f6bef1202e4ce1ff6dad0c2cb002861d3e"}],
///   "tokens": [{"symbol": "USDC", "name": "USD Coin", "decimals": 6}],
///   "transactions": [
///     {"type": "transfer", "to": "alice", "value": "5000000000000000000", "block": 1},
///     {"type": "transfer", "to": "bob", "value": "1000000000000000000"},
///     {"type": "mint", "token": "USDC", "to": "alice", "amount": 1000000000},
///     {"type": "token_transfer", "token": "USDC", "from": "alice", "to": "bob", "amount": 2000000},
///     {"type": "token_transfer", "token": "USDC", "from": "bob", "to": "alice", "amount": 9000000},
///     {"type": "internal", "from": "bob", "to": "alice", "value": 123},
///     {"type": "transfer", "from": "alice", "to": "bob", "value": 1000, "pending": true}
///   ]
/// }
/// ```
///
/// The chain starts with a genesis block whose state gives the faucet (the address of private key
/// 1, eth-tester's first account, `0x7e5f4552091a69125d5dfcb7b8c2659029395bdf`) a million ether,
/// and each account its `balance`. Tokens and contracts exist from genesis unless a `create`
/// transaction creates them. Every transaction goes into the block its `block` names (default:
/// the block after the previous transaction's), in the order listed; `pending` ones stay in the
/// mempool. A token transfer of more than the sender holds reverts (status 0, its fee paid), as
/// the real contract does. Block `n`'s timestamp is `genesis_time + n * block_time`; by default
/// the genesis time puts the tip at the scenario's `now`.
public struct EVMScenario: Sendable, Codable {
    /// `eth_chainId`; also what Etherscan's `chainid` must name.
    public var chainID: Int
    /// The native coin's code (ETH, POL, BNB...), shown by `GET /control/evm`.
    public var native: String
    /// Seconds between blocks.
    public var blockTime: Int
    /// The genesis block's time; nil puts the tip (`tip_height`) at the scenario's `now`.
    public var genesisTime: SimTime?
    /// `finalized` is this many blocks below `latest`.
    public var finalityDepth: Int
    /// `safe` is this many blocks below `latest`; nil = the finality depth.
    public var safeDepth: Int?
    /// The chain's height at start; nil = the last block holding a transaction. Blocks after the
    /// last transaction are empty.
    public var tipHeight: Int?
    /// Receipts carry an OP Stack chain's L1 data fee (`l1Fee` and its parts), which the sender
    /// pays on top of gas, as on OP Mainnet and Base.
    public var l1Fees: Bool
    /// When set, Etherscan's `/v2/api` answers "Invalid API Key" to a request without this `apikey`.
    public var etherscanAPIKey: String?
    /// Named accounts (addresses of nobody's key unless given).
    public var accounts: [EVMAccountSpec]
    /// ERC-20 tokens.
    public var tokens: [EVMTokenSpec]
    /// Contracts that forward the ether they are paid (internal transfers); one named
    /// `forwarder` always exists.
    public var contracts: [EVMContractSpec]
    /// The chain's transactions, oldest first.
    public var transactions: [EVMTransactionSpec]
    /// A generated history after `transactions` (see ``EVMGeneratedHistory``).
    public var generated: EVMGeneratedHistory?

    /// A chain; everything defaults (chain 1, ETH, 12-second blocks, finalized 2 blocks below the tip).
    public init(
        chainID: Int = 1, native: String = "ETH", blockTime: Int = 12, genesisTime: SimTime? = nil, finalityDepth: Int = 2,
        safeDepth: Int? = nil, tipHeight: Int? = nil, l1Fees: Bool = false, etherscanAPIKey: String? = nil, accounts: [EVMAccountSpec] = [],
        tokens: [EVMTokenSpec] = [], contracts: [EVMContractSpec] = [], transactions: [EVMTransactionSpec] = [],
        generated: EVMGeneratedHistory? = nil
    ) {
        self.chainID = chainID
        self.native = native
        self.blockTime = blockTime
        self.genesisTime = genesisTime
        self.finalityDepth = finalityDepth
        self.safeDepth = safeDepth
        self.tipHeight = tipHeight
        self.l1Fees = l1Fees
        self.etherscanAPIKey = etherscanAPIKey
        self.accounts = accounts
        self.tokens = tokens
        self.contracts = contracts
        self.transactions = transactions
        self.generated = generated
    }

    private enum CodingKeys: String, CodingKey {
        case native, accounts, tokens, contracts, transactions, generated
        case chainID = "chain_id", blockTime = "block_time", genesisTime = "genesis_time", finalityDepth = "finality_depth"
        case safeDepth = "safe_depth", tipHeight = "tip_height", l1Fees = "l1_fees", etherscanAPIKey = "etherscan_api_key"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            chainID: try c.decodeIfPresent(Int.self, forKey: .chainID) ?? 1,
            native: try c.decodeIfPresent(String.self, forKey: .native) ?? "ETH",
            blockTime: try c.decodeIfPresent(Int.self, forKey: .blockTime) ?? 12,
            genesisTime: try c.decodeIfPresent(SimTime.self, forKey: .genesisTime),
            finalityDepth: try c.decodeIfPresent(Int.self, forKey: .finalityDepth) ?? 2,
            safeDepth: try c.decodeIfPresent(Int.self, forKey: .safeDepth),
            tipHeight: try c.decodeIfPresent(Int.self, forKey: .tipHeight),
            l1Fees: try c.decodeIfPresent(Bool.self, forKey: .l1Fees) ?? false,
            etherscanAPIKey: try c.decodeIfPresent(String.self, forKey: .etherscanAPIKey),
            accounts: try c.decodeIfPresent([EVMAccountSpec].self, forKey: .accounts) ?? [],
            tokens: try c.decodeIfPresent([EVMTokenSpec].self, forKey: .tokens) ?? [],
            contracts: try c.decodeIfPresent([EVMContractSpec].self, forKey: .contracts) ?? [],
            transactions: try c.decodeIfPresent([EVMTransactionSpec].self, forKey: .transactions) ?? [],
            generated: try c.decodeIfPresent(EVMGeneratedHistory.self, forKey: .generated))
    }
}

/// A named account: `{"name": "alice", "address": "0x...", "balance": "0"}`. Without an address
/// one is derived from the name; `balance` (wei, default 0) is its genesis allocation, which no
/// transaction explains (a history read from an explorer will not add up to it).
public struct EVMAccountSpec: Sendable, Codable, Hashable {
    /// What transactions call it.
    public var name: String
    /// nil: derived from the name.
    public var address: EVMAddress?
    /// Wei held at genesis.
    public var balance: EVMAmount

    /// An account.
    public init(name: String, address: EVMAddress? = nil, balance: EVMAmount = 0) {
        self.name = name
        self.address = address
        self.balance = balance
    }

    private enum CodingKeys: String, CodingKey { case name, address, balance }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name), address: try c.decodeIfPresent(EVMAddress.self, forKey: .address),
                  balance: try c.decodeIfPresent(EVMAmount.self, forKey: .balance) ?? 0)
    }
}

/// An ERC-20 token: `{"symbol": "USDC", "name": "USD Coin", "decimals": 6, "address": "0x..."}`.
/// Its contract answers `balanceOf`, `decimals`, `symbol`, `name` and `totalSupply` and logs
/// `Transfer`; `mint` transactions are sent by its `minter` (default the faucet).
public struct EVMTokenSpec: Sendable, Codable, Hashable {
    /// What `symbol()` answers, and what transactions call it.
    public var symbol: String
    /// What `name()` answers; default the symbol.
    public var name: String?
    /// What `decimals()` answers.
    public var decimals: Int
    /// nil: derived from the symbol.
    public var address: EVMAddress?
    /// Who sends its mints (a name or an address); nil: the faucet.
    public var minter: String?

    /// A token.
    public init(symbol: String, name: String? = nil, decimals: Int, address: EVMAddress? = nil, minter: String? = nil) {
        self.symbol = symbol
        self.name = name
        self.decimals = decimals
        self.address = address
        self.minter = minter
    }
}

/// A contract that sends on the ether it is paid (`forward(address)`): `{"name": "router",
/// "address": "0x..."}`. A transaction of type `internal` through it moves native coin that no
/// transaction's own `to` and `value` show.
public struct EVMContractSpec: Sendable, Codable, Hashable {
    /// What transactions call it (`via`).
    public var name: String
    /// nil: derived from the name.
    public var address: EVMAddress?

    /// A forwarding contract.
    public init(name: String, address: EVMAddress? = nil) {
        self.name = name
        self.address = address
    }
}

/// A transaction of a scenario or of `POST /control/evm/transactions`. Accounts, tokens and
/// contracts are named (`alice`, `USDC`, `forwarder`, `faucet`) or given as addresses.
///
/// | type | fields | what it does |
/// |---|---|---|
/// | `transfer` | `from` (default faucet), `to`, `value` | a native transfer |
/// | `token_transfer` | `token`, `from`, `to`, `amount` | ERC-20 `transfer`; reverts (status 0) when `from` holds less |
/// | `mint` | `token`, `to`, `amount` | the token's minter mints: a `Transfer` log from the zero address |
/// | `internal` | `from`, `to`, `value`, `via` (default `forwarder`) | `from` pays the contract, which sends `value` on to `to` (an internal transfer) |
/// | `create` | `from` (default faucet), `contract` (a token or contract of the scenario) | creates that contract: before this block it has no code |
///
/// Every type takes `fail` (the transaction reverts: status 0, its fee paid, nothing else moves;
/// for `internal` the contract's call is still traced, as Erigon lists it), `gas_used`, `gas`
/// (the limit), `max_priority_fee` (wei per gas, default 1 gwei) and `l1_fee` (wei; an OP Stack
/// chain's L1 fee, default computed when the scenario has `l1_fees`). In a scenario, `block`
/// places it and `pending` leaves it in the mempool; through the control API, `mine` (default
/// true) mines it at once in a block of its own, and false leaves it in the mempool.
public struct EVMTransactionSpec: Sendable, Codable, Hashable {
    /// What the transaction does.
    public enum Kind: String, Sendable, Codable, Hashable {
        case transfer
        case tokenTransfer = "token_transfer"
        case mint
        case `internal`
        case create
    }

    public var type: Kind
    public var from: String?
    public var to: String?
    /// Wei sent (`transfer`, `internal`).
    public var value: EVMAmount?
    /// Token units (`token_transfer`, `mint`).
    public var amount: EVMAmount?
    public var token: String?
    public var via: String?
    public var contract: String?
    public var fail: Bool
    public var block: Int?
    public var pending: Bool
    public var mine: Bool?
    public var gasUsed: Int?
    public var gas: Int?
    public var maxPriorityFee: EVMAmount?
    public var l1Fee: EVMAmount?

    /// A transaction; see the table on the type.
    public init(
        _ type: Kind, from: String? = nil, to: String? = nil, value: EVMAmount? = nil, amount: EVMAmount? = nil, token: String? = nil,
        via: String? = nil, contract: String? = nil, fail: Bool = false, block: Int? = nil, pending: Bool = false, mine: Bool? = nil,
        gasUsed: Int? = nil, gas: Int? = nil, maxPriorityFee: EVMAmount? = nil, l1Fee: EVMAmount? = nil
    ) {
        self.type = type
        self.from = from
        self.to = to
        self.value = value
        self.amount = amount
        self.token = token
        self.via = via
        self.contract = contract
        self.fail = fail
        self.block = block
        self.pending = pending
        self.mine = mine
        self.gasUsed = gasUsed
        self.gas = gas
        self.maxPriorityFee = maxPriorityFee
        self.l1Fee = l1Fee
    }

    private enum CodingKeys: String, CodingKey {
        case type, from, to, value, amount, token, via, contract, fail, block, pending, mine, gas
        case gasUsed = "gas_used", maxPriorityFee = "max_priority_fee", l1Fee = "l1_fee"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode(Kind.self, forKey: .type), from: try c.decodeIfPresent(String.self, forKey: .from),
            to: try c.decodeIfPresent(String.self, forKey: .to), value: try c.decodeIfPresent(EVMAmount.self, forKey: .value),
            amount: try c.decodeIfPresent(EVMAmount.self, forKey: .amount), token: try c.decodeIfPresent(String.self, forKey: .token),
            via: try c.decodeIfPresent(String.self, forKey: .via), contract: try c.decodeIfPresent(String.self, forKey: .contract),
            fail: try c.decodeIfPresent(Bool.self, forKey: .fail) ?? false, block: try c.decodeIfPresent(Int.self, forKey: .block),
            pending: try c.decodeIfPresent(Bool.self, forKey: .pending) ?? false, mine: try c.decodeIfPresent(Bool.self, forKey: .mine),
            gasUsed: try c.decodeIfPresent(Int.self, forKey: .gasUsed), gas: try c.decodeIfPresent(Int.self, forKey: .gas),
            maxPriorityFee: try c.decodeIfPresent(EVMAmount.self, forKey: .maxPriorityFee),
            l1Fee: try c.decodeIfPresent(EVMAmount.self, forKey: .l1Fee))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(from, forKey: .from)
        try c.encodeIfPresent(to, forKey: .to)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encodeIfPresent(amount, forKey: .amount)
        try c.encodeIfPresent(token, forKey: .token)
        try c.encodeIfPresent(via, forKey: .via)
        try c.encodeIfPresent(contract, forKey: .contract)
        if fail { try c.encode(fail, forKey: .fail) }
        try c.encodeIfPresent(block, forKey: .block)
        if pending { try c.encode(pending, forKey: .pending) }
        try c.encodeIfPresent(mine, forKey: .mine)
        try c.encodeIfPresent(gasUsed, forKey: .gasUsed)
        try c.encodeIfPresent(gas, forKey: .gas)
        try c.encodeIfPresent(maxPriorityFee, forKey: .maxPriorityFee)
        try c.encodeIfPresent(l1Fee, forKey: .l1Fee)
    }
}

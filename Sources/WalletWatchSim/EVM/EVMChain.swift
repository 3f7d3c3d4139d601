/// The simulated EVM chain: blocks, the mempool, and every account's native balance, nonce and
/// token balances after each block, so that any block's state (`latest`, `safe`, `finalized`, a
/// number) is a lookup away. Transactions are executed by the simulator's own rules (see
/// `EVMChain+Execution.swift`), not by an EVM: what they do is what the scenario says they do,
/// with the same consequences on balances, nonces, logs and traces as on a real chain.
struct EVMChain: Sendable {
    let chainID: Int
    let native: String
    let blockTime: Int64
    /// Receipts carry an OP Stack chain's L1 data fee.
    let l1Fees: Bool
    var finalityDepth: Int
    var safeDepth: Int
    /// The next mined block's timestamp, when the control API set one.
    var nextTimestamp: Int64?
    private(set) var blocks: [EVMBlock] = []
    /// Signed transactions waiting for a block, in arrival order.
    var mempool: [EVMTransaction] = []
    /// Where each mined transaction is: block number and index.
    var located: [EVMHash: TransactionPosition] = [:]
    var blockNumbers: [EVMHash: Int] = [:]
    var balances: [EVMAddress: EVMValueHistory] = [:]
    var nonces: [EVMAddress: EVMValueHistory] = [:]
    var tokenBalances: [EVMTokenHolder: EVMValueHistory] = [:]
    var supplies: [EVMAddress: EVMValueHistory] = [:]
    /// Tokens and forwarders, by address.
    var contracts: [EVMAddress: EVMContract] = [:]
    /// Accounts, tokens (by symbol) and contracts by the scenario's names, and `faucet`.
    private(set) var names: [String: EVMAddress] = [:]
    /// Names in the order declared: accounts, tokens, contracts.
    private(set) var accountNames: [String] = []
    private(set) var tokenNames: [String] = []
    private(set) var contractNames: [String] = []
    /// Reorgs so far: a block mined again at a height gets another hash.
    var reorgs = 0

    struct TransactionPosition: Sendable, Hashable {
        let block: Int
        let index: Int
    }

    /// The faucet: the address of private key 1 (eth-tester's first genesis account), which holds
    /// a million ether at genesis and pays what the scenario sends without a sender.
    static let faucetAddress = EVMAddress("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf")!
    static let faucetBalance: Int128 = 1_000_000 * 1_000_000_000_000_000_000
    /// The priority fee a transaction offers unless it says otherwise: 1 gwei.
    static let defaultPriorityFee: Int128 = 1_000_000_000

    /// Builds the chain a scenario describes, up to its tip, with its pending transactions in the
    /// mempool. `referenceTime`: the scenario's `now` (the tip's time by default).
    init(scenario given: EVMScenario, referenceTime: SimTime) throws {
        var scenario = given
        guard scenario.chainID >= 1 else { throw SimulatorError(.invalid, "evm.chain_id must be >= 1") }
        guard scenario.blockTime >= 1 else { throw SimulatorError(.invalid, "evm.block_time must be >= 1") }
        guard scenario.finalityDepth >= 0, (scenario.safeDepth ?? 0) >= 0 else {
            throw SimulatorError(.invalid, "evm.finality_depth and evm.safe_depth must be >= 0")
        }
        try scenario.generated?.expand(&scenario)
        chainID = scenario.chainID
        native = scenario.native
        blockTime = Int64(scenario.blockTime)
        l1Fees = scenario.l1Fees
        finalityDepth = scenario.finalityDepth
        safeDepth = scenario.safeDepth ?? scenario.finalityDepth
        names["faucet"] = Self.faucetAddress

        let createdLater = Set(scenario.transactions.filter { $0.type == .create }.compactMap(\.contract))
        for account in scenario.accounts { try declare(account) }
        for token in scenario.tokens { try declare(token, createdIn: createdLater.contains(token.symbol) ? nil : 0) }
        var contractSpecs = scenario.contracts
        if !contractSpecs.contains(where: { $0.name == "forwarder" }) { contractSpecs.insert(EVMContractSpec(name: "forwarder"), at: 0) }
        for contract in contractSpecs { try declare(contract, createdIn: createdLater.contains(contract.name) ? nil : 0) }

        // Where each transaction goes: its block, or the one after its predecessor's.
        var placed: [[Int]] = []
        var last = 0
        var pending: [Int] = []
        for (index, spec) in scenario.transactions.enumerated() {
            if spec.pending {
                guard spec.block == nil else { throw SimulatorError(.invalid, "evm.transactions[\(index)]: a pending transaction has no block") }
                pending.append(index)
                continue
            }
            let block = spec.block ?? last + 1
            guard block >= max(last, 1) else {
                throw SimulatorError(.invalid, "evm.transactions[\(index)]: block \(block) comes before block \(last) of an earlier transaction (or before block 1)")
            }
            while placed.count <= block { placed.append([]) }
            placed[block].append(index)
            last = block
        }
        let tip = scenario.tipHeight ?? last
        guard tip >= last else { throw SimulatorError(.invalid, "evm.tip_height \(tip) is below block \(last), which holds a transaction") }
        let genesisTime = scenario.genesisTime?.unixSeconds ?? referenceTime.unixSeconds - Int64(tip) * blockTime

        let genesis = EVMBlock(
            number: 0, hash: EVMHash(hashing: ["walletwatch-sim evm genesis", String(chainID), String(genesisTime)]),
            parentHash: EVMHash.zero, timestamp: genesisTime, baseFeePerGas: EVMBlock.genesisBaseFee, gasUsed: 0, transactions: [])
        append(genesis)
        balances[Self.faucetAddress, default: EVMValueHistory()].set(Self.faucetBalance, at: 0)
        for account in scenario.accounts where account.balance.value > 0 {
            guard let address = names[account.name] else { continue }
            balances[address, default: EVMValueHistory()].set(balance(of: address, at: 0) + account.balance.value, at: 0)
        }
        if tip >= 1 {
            for number in 1...tip {
                for index in number < placed.count ? placed[number] : [] {
                    do {
                        _ = try submit(scenario.transactions[index])
                    } catch let error as SimulatorError {
                        throw SimulatorError(error.code, "evm.transactions[\(index)] (block \(number)): \(error.message)")
                    }
                }
                let (_, dropped) = mineBlock()
                if let hash = dropped.first {
                    throw SimulatorError(.invalid, "evm block \(number): transaction \(hash) cannot be mined: its sender cannot pay it")
                }
            }
        }
        for index in pending {
            do {
                _ = try submit(scenario.transactions[index])
            } catch let error as SimulatorError {
                throw SimulatorError(error.code, "evm.transactions[\(index)] (pending): \(error.message)")
            }
        }
    }

    // MARK: declarations

    /// Adds a named account (no balance: only genesis allocates coins without a transaction).
    mutating func declare(_ account: EVMAccountSpec) throws {
        let address = account.address ?? .derived("account \(account.name)")
        try name(account.name, address)
        accountNames.append(account.name)
    }

    /// Adds a token; `createdIn` nil: it has no code until a `create` transaction makes it.
    mutating func declare(_ token: EVMTokenSpec, createdIn: Int?) throws {
        guard (0...255).contains(token.decimals) else { throw SimulatorError(.invalid, "token \(token.symbol): decimals must be 0...255") }
        let address = token.address ?? .derived("token \(token.symbol)")
        guard contracts[address] == nil else { throw SimulatorError(.conflict, "two contracts at \(address)") }
        var minter = Self.faucetAddress
        if let name = token.minter {
            guard let resolved = resolve(name) else { throw SimulatorError(.invalid, "token \(token.symbol): unknown minter \(name)") }
            minter = resolved
        }
        try name(token.symbol, address)
        tokenNames.append(token.symbol)
        contracts[address] = EVMContract(
            name: token.symbol, address: address, kind: .token(symbol: token.symbol, name: token.name ?? token.symbol, decimals: token.decimals, minter: minter),
            createdIn: createdIn)
    }

    /// Adds a forwarding contract; `createdIn` nil: it has no code until a `create` transaction makes it.
    mutating func declare(_ contract: EVMContractSpec, createdIn: Int?) throws {
        let address = contract.address ?? .derived("contract \(contract.name)")
        guard contracts[address] == nil else { throw SimulatorError(.conflict, "two contracts at \(address)") }
        try name(contract.name, address)
        contractNames.append(contract.name)
        contracts[address] = EVMContract(name: contract.name, address: address, kind: .forwarder, createdIn: createdIn)
    }

    private mutating func name(_ name: String, _ address: EVMAddress) throws {
        guard !name.isEmpty, EVMAddress(name) == nil else { throw SimulatorError(.invalid, "\(name.isEmpty ? "an empty name" : name) cannot name an account") }
        guard names[name] == nil else { throw SimulatorError(.conflict, "the evm scenario already names \(name)") }
        guard !names.values.contains(address) else { throw SimulatorError(.conflict, "\(address) already has a name") }
        names[name] = address
    }

    /// The address a name stands for, or the address written out.
    func resolve(_ text: String) -> EVMAddress? { names[text] ?? EVMAddress(text) }

    /// The scenario's name of an address, if it has one.
    func name(of address: EVMAddress) -> String? { names.first { $0.value == address }?.key }

    // MARK: reading

    /// The newest block's number.
    var tip: Int { blocks.count - 1 }
    /// The `finalized` block.
    var finalized: Int { max(0, tip - finalityDepth) }
    /// The `safe` block.
    var safe: Int { max(0, tip - safeDepth) }

    func block(_ number: Int) -> EVMBlock { blocks[number] }

    func block(hash: EVMHash) -> EVMBlock? { blockNumbers[hash].map { blocks[$0] } }

    func balance(of address: EVMAddress, at number: Int) -> Int128 { balances[address]?.value(at: number) ?? 0 }

    func nonce(of address: EVMAddress, at number: Int) -> Int { Int(nonces[address]?.value(at: number) ?? 0) }

    /// The next nonce of `address`, counting its transactions in the mempool.
    func pendingNonce(of address: EVMAddress) -> Int {
        Int(nonces[address]?.latest ?? 0) + mempool.reduce(0) { $0 + ($1.from == address ? 1 : 0) }
    }

    func tokenBalance(_ token: EVMAddress, of holder: EVMAddress, at number: Int) -> Int128 {
        tokenBalances[EVMTokenHolder(token: token, holder: holder)]?.value(at: number) ?? 0
    }

    func totalSupply(of token: EVMAddress, at number: Int) -> Int128 { supplies[token]?.value(at: number) ?? 0 }

    /// A mined transaction of the canonical chain.
    func mined(_ hash: EVMHash) -> EVMMinedTransaction? {
        located[hash].map { blocks[$0.block].transactions[$0.index] }
    }

    /// A transaction waiting in the mempool.
    func waiting(_ hash: EVMHash) -> EVMTransaction? { mempool.first { $0.hash == hash } }

    /// Every mined transaction of blocks `range`, oldest first.
    func transactions(in range: ClosedRange<Int>) -> some Sequence<EVMMinedTransaction> {
        blocks[max(0, range.lowerBound)...min(tip, range.upperBound)].lazy.flatMap(\.transactions)
    }

    // MARK: building

    /// Adds a block on top.
    mutating func append(_ block: EVMBlock) {
        precondition(block.number == blocks.count, "blocks are appended in order")
        blocks.append(block)
        blockNumbers[block.hash] = block.number
        for transaction in block.transactions {
            located[transaction.hash] = TransactionPosition(block: block.number, index: transaction.index)
        }
    }

    /// Removes the blocks above `number` and every change they made (a reorg); returns them.
    mutating func removeBlocks(above number: Int) -> [EVMBlock] {
        let removed = Array(blocks[(number + 1)...])
        blocks.removeLast(removed.count)
        for block in removed {
            blockNumbers.removeValue(forKey: block.hash)
            for transaction in block.transactions { located.removeValue(forKey: transaction.hash) }
        }
        for key in balances.keys { balances[key]?.truncate(above: number) }
        for key in nonces.keys { nonces[key]?.truncate(above: number) }
        for key in tokenBalances.keys { tokenBalances[key]?.truncate(above: number) }
        for key in supplies.keys { supplies[key]?.truncate(above: number) }
        for address in contracts.keys where (contracts[address]?.createdIn ?? 0) > number { contracts[address]?.createdIn = nil }
        return removed
    }
}

/// A token balance's key: the token and its holder.
struct EVMTokenHolder: Hashable, Sendable {
    let token: EVMAddress
    let holder: EVMAddress
}

extension EVMHash {
    /// 32 zero bytes: the genesis block's parent.
    static let zero = EVMHash("0x" + String(repeating: "0", count: 64))!
}

/// Transactions in: a scenario's or the control API's transaction becomes a signed transaction in
/// the mempool (nonce, fees, gas limit, call data as a wallet would set them), and mining executes
/// the mempool into a block.
extension EVMChain {
    /// Gas limits a transaction gets unless it names one: what the test node's control methods set.
    static let transferGasLimit = 21_000
    static let callGasLimit = 150_000
    static let createGasLimit = 3_000_000

    /// Signs `spec` into a transaction and queues it; returns it. Throws when it names what does
    /// not exist or its sender cannot pay the most it may cost (geth's mempool check).
    @discardableResult
    mutating func submit(_ spec: EVMTransactionSpec) throws -> EVMTransaction {
        func address(_ text: String?, _ role: String) throws -> EVMAddress {
            guard let text else { throw SimulatorError(.invalid, "a \(spec.type.rawValue) needs '\(role)'") }
            guard let address = resolve(text) else { throw SimulatorError(.notFound, "\(role) \(text) is neither a name of the scenario nor an address") }
            return address
        }
        func amount(_ value: EVMAmount?, _ role: String) throws -> Int128 {
            guard let value else { throw SimulatorError(.invalid, "a \(spec.type.rawValue) needs '\(role)'") }
            return value.value
        }
        func contract(_ text: String?, _ role: String, token: Bool) throws -> EVMContract {
            let at = try address(text, role)
            guard let contract = contracts[at], contract.isToken == token else {
                throw SimulatorError(.notFound, "\(text ?? "") is not a \(token ? "token" : "forwarding contract") of the scenario")
            }
            guard contract.createdIn != nil || creationPending(at) else {
                throw SimulatorError(.conflict, "\(contract.name) has no code yet: create it first (a transaction of type create)")
            }
            return contract
        }

        let from: EVMAddress, to: EVMAddress?, value: Int128, input: [UInt8], action: EVMTransaction.Action, defaultGas: Int
        switch spec.type {
        case .transfer:
            from = try address(spec.from ?? "faucet", "from")
            to = try address(spec.to, "to")
            value = try amount(spec.value, "value")
            (input, action, defaultGas) = ([], .transfer, Self.transferGasLimit)
        case .tokenTransfer:
            let token = try contract(spec.token, "token", token: true)
            let recipient = try address(spec.to, "to"), units = try amount(spec.amount, "amount")
            from = try address(spec.from, "from")
            (to, value, defaultGas) = (token.address, 0, Self.callGasLimit)
            input = Self.call(EVMSelector.transfer, recipient.word, EVMHex.word(units))
            action = .tokenTransfer(token: token.address, recipient: recipient, amount: units)
        case .mint:
            let token = try contract(spec.token, "token", token: true)
            let recipient = try address(spec.to, "to"), units = try amount(spec.amount, "amount")
            guard case .token(_, _, _, let minter) = token.kind else { preconditionFailure("a token") }
            from = try spec.from.map { try address($0, "from") } ?? minter
            (to, value, defaultGas) = (token.address, 0, Self.callGasLimit)
            input = Self.call(EVMSelector.mint, recipient.word, EVMHex.word(units))
            action = .mint(token: token.address, recipient: recipient, amount: units)
        case .internal:
            let forwarder = try contract(spec.via ?? "forwarder", "via", token: false)
            let recipient = try address(spec.to, "to")
            from = try address(spec.from, "from")
            (to, value, defaultGas) = (forwarder.address, try amount(spec.value, "value"), Self.callGasLimit)
            input = Self.call(spec.fail ? EVMSelector.forwardAndRevert : EVMSelector.forward, recipient.word)
            action = .forward(recipient: recipient)
        case .create:
            guard let name = spec.contract, let at = names[name], let created = contracts[at] else {
                throw SimulatorError(.notFound, "a create needs 'contract': a token or contract the scenario declares")
            }
            guard created.createdIn == nil, !creationPending(at) else { throw SimulatorError(.conflict, "\(name) exists already") }
            from = try address(spec.from ?? "faucet", "from")
            (to, value, input, defaultGas) = (nil, 0, created.initCode, Self.createGasLimit)
            action = .create(contract: at)
        }
        guard contracts[from] == nil else { throw SimulatorError(.invalid, "\(spec.from ?? "") is a contract: only accounts send transactions") }
        let gasLimit = spec.gas ?? defaultGas
        guard gasLimit >= Self.transferGasLimit, gasLimit <= EVMBlock.gasLimit else {
            throw SimulatorError(.invalid, "gas must be 21000...\(EVMBlock.gasLimit)")
        }
        if let used = spec.gasUsed, !(21_000...gasLimit).contains(used) {
            throw SimulatorError(.invalid, "gas_used \(used) must be 21000...\(gasLimit) (the gas limit)")
        }
        let priority = spec.maxPriorityFee?.value ?? Self.defaultPriorityFee
        let maxFee = 2 * blocks[tip].nextBaseFee + priority
        let transaction = EVMTransaction(
            action: action, from: from, to: to, value: value, input: input, nonce: pendingNonce(of: from), gasLimit: gasLimit,
            maxFeePerGas: maxFee, maxPriorityFeePerGas: priority, forcedFailure: spec.fail, gasUsedOverride: spec.gasUsed,
            l1FeeOverride: spec.l1Fee?.value, chainID: chainID)
        let most = value + Int128(gasLimit) * maxFee
        let queued = mempool.filter { $0.from == from }.reduce(Int128(0)) { $0 + $1.value + Int128($1.gasLimit) * $1.maxFeePerGas }
        let have = balance(of: from, at: tip) - queued
        guard have >= most else {
            throw SimulatorError(.conflict, "insufficient funds for gas * price + value: address \(from) have \(max(0, have)) want \(most)")
        }
        mempool.append(transaction)
        return transaction
    }

    /// Whether a transaction in the mempool creates the contract at `address`.
    func creationPending(_ address: EVMAddress) -> Bool {
        mempool.contains { if case .create(address) = $0.action { true } else { false } }
    }

    /// Call data: a selector and 32-byte words.
    static func call(_ selector: String, _ words: String...) -> [UInt8] {
        EVMHex.parseData("0x" + selector + words.map { $0.dropFirst(2) }.joined()) ?? []
    }

    /// Mines the next block from the mempool: its transactions in arrival order while they fit
    /// the gas limit, a sender's later transactions waiting behind one that waits. A transaction
    /// whose sender can no longer pay it (after a reorg) or whose nonce is already used is
    /// dropped. Returns the block and the hashes dropped.
    @discardableResult
    mutating func mineBlock() -> (block: EVMBlock, dropped: [EVMHash]) {
        let parent = blocks[tip], number = tip + 1
        let baseFee = parent.nextBaseFee
        let timestamp = max(nextTimestamp ?? parent.timestamp + blockTime, parent.timestamp + 1)
        nextTimestamp = nil
        var gasLeft = EVMBlock.gasLimit, cumulative = 0, logIndex = 0
        var included: [EVMMinedTransaction] = [], kept: [EVMTransaction] = [], dropped: [EVMHash] = []
        var waitingSenders = Set<EVMAddress>()
        for transaction in mempool {
            // The sender's nonce so far, this block's transactions included.
            let expected = nonce(of: transaction.from, at: number)
            if transaction.nonce < expected {
                dropped.append(transaction.hash)
                continue
            }
            if waitingSenders.contains(transaction.from) || transaction.gasLimit > gasLeft || transaction.nonce > expected {
                waitingSenders.insert(transaction.from)
                kept.append(transaction)
                continue
            }
            guard let mined = execute(transaction, number: number, index: included.count, baseFee: baseFee, cumulative: cumulative,
                                      firstLogIndex: logIndex) else {
                dropped.append(transaction.hash)
                waitingSenders.insert(transaction.from)
                continue
            }
            included.append(mined)
            gasLeft -= transaction.gasLimit
            cumulative = mined.cumulativeGasUsed
            logIndex += mined.logs.count
        }
        mempool = kept
        let block = EVMBlock(
            number: number,
            hash: EVMHash(hashing: ["walletwatch-sim evm block", String(chainID), String(number), parent.hash.hex, String(timestamp), String(reorgs)]
                          + included.map(\.hash.hex)),
            parentHash: parent.hash, timestamp: timestamp, baseFeePerGas: baseFee, gasUsed: cumulative, transactions: included)
        append(block)
        return (block, dropped)
    }

    /// Executes `transaction` as the `index`th of block `number` on the state so far; nil when
    /// its sender cannot pay (it is not included). A token transfer of more than the sender holds
    /// reverts, as the contract's subtraction underflows.
    private mutating func execute(
        _ transaction: EVMTransaction, number: Int, index: Int, baseFee: Int128, cumulative: Int, firstLogIndex: Int
    ) -> EVMMinedTransaction? {
        let from = transaction.from
        var succeeds = !transaction.forcedFailure
        var defaultGas = 21_000
        // A call to an address without code (a contract whose creation a reorg dropped) runs
        // nothing: it moves the value and succeeds, as on Ethereum.
        var action = transaction.action
        if let to = transaction.to, let contract = contracts[to], contract.createdIn == nil { action = .transfer }
        switch action {
        case .transfer:
            break
        case .tokenTransfer(let token, let recipient, let amount):
            if tokenBalance(token, of: from, at: tip + 1) < amount { succeeds = false }
            defaultGas = !succeeds ? 23_956 : tokenBalance(token, of: recipient, at: tip + 1) == 0 ? 50_890 : 33_790
        case .mint(let token, let recipient, _):
            defaultGas = !succeeds ? 23_956 : tokenBalance(token, of: recipient, at: tip + 1) == 0 ? 70_035 : 52_935
        case .forward:
            defaultGas = succeeds ? 30_913 : 32_112
        case .create(let contract):
            defaultGas = !succeeds ? 53_000 : contracts[contract]?.isToken == true ? 455_485 : 130_028
        }
        let gasUsed = transaction.gasUsedOverride ?? min(defaultGas, transaction.gasLimit)
        let price = min(transaction.maxFeePerGas, baseFee + transaction.maxPriorityFeePerGas)
        let l1 = l1Fees || transaction.l1FeeOverride != nil ? EVML1Fee.of(inputBytes: transaction.input.count, override: transaction.l1FeeOverride) : nil
        let fee = Int128(gasUsed) * price + (l1?.fee ?? 0)
        let moved = succeeds ? transaction.value : 0
        guard balance(of: from, at: number) >= fee + moved else { return nil }

        add(-(fee + moved), to: from, at: number)
        // The base fee is burnt; the priority fee goes to the block's miner (the zero address, as
        // on eth-tester's chain).
        add(Int128(gasUsed) * max(0, price - baseFee), to: .zero, at: number)
        nonces[from, default: EVMValueHistory()].set(Int128(nonce(of: from, at: number) + 1), at: number)
        var logs: [EVMLog] = [], operations: [EVMInternalOperation] = [], touched: Set<EVMAddress> = [from], created: EVMAddress?
        var revertData: [UInt8] = []
        if let to = transaction.to { touched.insert(to) }
        switch action {
        case .transfer:
            if let to = transaction.to { add(moved, to: to, at: number) }
        case .tokenTransfer(let token, let recipient, let amount):
            if succeeds {
                addTokens(-amount, of: token, to: from, at: number)
                addTokens(amount, of: token, to: recipient, at: number)
                logs.append(Self.transferLog(token, from: from, to: recipient, amount: amount, index: firstLogIndex))
            }
        case .mint(let token, let recipient, let amount):
            if succeeds {
                addTokens(amount, of: token, to: recipient, at: number)
                supplies[token, default: EVMValueHistory()].set(totalSupply(of: token, at: number) + amount, at: number)
                logs.append(Self.transferLog(token, from: .zero, to: recipient, amount: amount, index: firstLogIndex))
            }
        case .forward(let recipient):
            // The contract receives the value and sends it on at once: its balance does not move.
            guard let forwarder = transaction.to else { break }
            add(moved, to: recipient, at: number)
            touched.insert(recipient)
            operations.append(EVMInternalOperation(kind: 0, from: forwarder, to: recipient, value: transaction.value, gas: 2_300, gasUsed: 0,
                                                   traceAddress: [0], reverted: !succeeds))
            if !succeeds { revertData = Self.revertReason("forwarded, then reverted") }
        case .create(let contract):
            touched.insert(contract)
            if succeeds {
                contracts[contract]?.createdIn = number
                created = contract
                // EIP-161: a contract starts with nonce 1.
                nonces[contract, default: EVMValueHistory()].set(1, at: number)
            }
        }
        return EVMMinedTransaction(
            transaction: transaction, blockNumber: number, index: index, status: succeeds ? 1 : 0, gasUsed: gasUsed,
            cumulativeGasUsed: cumulative + gasUsed, effectiveGasPrice: price, l1: l1, logs: logs, internalOperations: operations,
            created: created, touched: touched, revertData: revertData)
    }

    private mutating func add(_ delta: Int128, to address: EVMAddress, at number: Int) {
        guard delta != 0 else { return }
        balances[address, default: EVMValueHistory()].set(balance(of: address, at: number) + delta, at: number)
    }

    private mutating func addTokens(_ delta: Int128, of token: EVMAddress, to holder: EVMAddress, at number: Int) {
        let key = EVMTokenHolder(token: token, holder: holder)
        tokenBalances[key, default: EVMValueHistory()].set(tokenBalance(token, of: holder, at: number) + delta, at: number)
    }

    private static func transferLog(_ token: EVMAddress, from: EVMAddress, to: EVMAddress, amount: Int128, index: Int) -> EVMLog {
        EVMLog(address: token, topics: [EVMSelector.transferTopic, from.word, to.word], data: EVMHex.word(amount), logIndex: index)
    }

    /// A revert's `Error(string)` payload (selector 0x08c379a0, then the ABI string).
    static func revertReason(_ text: String) -> [UInt8] {
        EVMHex.parseData("0x08c379a0" + EVMHex.abiString(text).dropFirst(2)) ?? []
    }
}

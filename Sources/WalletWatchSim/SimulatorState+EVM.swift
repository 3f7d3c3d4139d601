/// The EVM face's access to the state: answers, and the control API's changes to the chain.
extension SimulatorState {
    /// The answer to a JSON-RPC body: nil without an EVM chain; `.some(nil)` when there is
    /// nothing to send back (notifications only).
    func answerEVM(rpc body: [UInt8]) -> JSONValue?? {
        guard evm != nil else { return nil }
        return .some(evm!.answerRPC(body, now: clock.now()))
    }

    /// The answer to an explorer request; nil without an EVM chain.
    func answerEVM(explorer dialect: EVMFace.Dialect, query: [String: String]) -> JSONValue? {
        guard evm != nil else { return nil }
        return evm!.answerExplorer(dialect, query: query, now: clock.now())
    }

    /// Runs `change` on the EVM face; throws 404 without one.
    func withEVM<T>(_ change: (inout EVMFace) throws -> T) throws -> T {
        guard evm != nil else { throw SimulatorError(.notFound, "no EVM chain: the scenario has no evm section") }
        return try change(&evm!)
    }

    func evmSummary() throws -> EVMChainSummary { try withEVM { EVMChainSummary($0.chain) } }

    /// Queues a transaction and, unless `spec.mine` is false, mines it in a block of its own.
    func evmSend(_ spec: EVMTransactionSpec) throws -> EVMSentTransaction {
        guard !spec.pending, spec.block == nil else {
            throw SimulatorError(.invalid, "through the control API a transaction is mined now (mine: true, the default) or left in the mempool (mine: false), not placed with block or pending")
        }
        return try withEVM { face in
            let transaction = try face.chain.submit(spec)
            if spec.mine ?? true {
                // A block of its own (and of its sender's transactions before it, which its nonce
                // needs): what others queued stays in the mempool.
                let others = face.chain.mempool.filter { $0.from != transaction.from }
                face.chain.mempool.removeAll { $0.from != transaction.from }
                face.chain.mineBlock()
                face.chain.mempool += others
            }
            return EVMSentTransaction(transaction.hash, in: face.chain)
        }
    }

    func evmTransaction(_ hash: EVMHash) throws -> EVMSentTransaction {
        try withEVM { face in
            guard face.chain.mined(hash) != nil || face.chain.waiting(hash) != nil else {
                throw SimulatorError(.notFound, "no transaction \(hash) on the EVM chain (mined or waiting)")
            }
            return EVMSentTransaction(hash, in: face.chain)
        }
    }

    /// Mines `blocks` blocks, the first taking the mempool; `timestamp` sets the first one's time.
    func evmMine(blocks: Int, timestamp: Int64?) throws -> EVMMineReply {
        guard (1...10_000).contains(blocks) else { throw SimulatorError(.invalid, "blocks must be 1...10000") }
        return try withEVM { face in
            if let timestamp {
                let latest = face.chain.block(face.chain.tip).timestamp
                guard timestamp > latest else {
                    throw SimulatorError(.invalid, "timestamp \(timestamp) is not after the latest block's (\(latest)): time only moves forward")
                }
                face.chain.nextTimestamp = timestamp
            }
            var reply = EVMMineReply(tipHeight: 0, mined: [], transactions: [], dropped: [])
            for _ in 0..<blocks {
                let (block, dropped) = face.chain.mineBlock()
                reply.mined.append(block.hash.hex)
                reply.transactions += block.transactions.map(\.hash.hex)
                reply.dropped += dropped.map(\.hex)
            }
            reply.tipHeight = face.chain.tip
            return reply
        }
    }

    func evmReorg(_ body: EVMReorgBody) throws -> EVMReorgReply {
        try withEVM { try $0.chain.reorg(depth: body.depth, blocks: body.blocks, drop: Set(body.drop ?? []), force: body.force ?? false) }
    }

    func evmSetFinality(_ body: EVMFinalityBody) throws -> EVMChainSummary {
        guard (body.finalityDepth ?? 0) >= 0, (body.safeDepth ?? 0) >= 0 else { throw SimulatorError(.invalid, "depths must be >= 0") }
        return try withEVM { face in
            if let depth = body.finalityDepth { face.chain.finalityDepth = depth }
            if let depth = body.safeDepth { face.chain.safeDepth = depth }
            return EVMChainSummary(face.chain)
        }
    }

    func evmDeclare(account: EVMAccountSpec) throws -> EVMNamedAddress {
        guard account.balance.value == 0 else {
            throw SimulatorError(.invalid, "an account added while the chain runs has no balance: fund it with a transfer (only genesis allocates coins)")
        }
        return try withEVM { face in
            try face.chain.declare(account)
            return EVMNamedAddress(name: account.name, address: face.chain.names[account.name]!)
        }
    }

    func evmDeclare(token: EVMTokenSpec) throws -> EVMNamedAddress {
        try withEVM { face in
            try face.chain.declare(token, createdIn: nil)
            return EVMNamedAddress(name: token.symbol, address: face.chain.names[token.symbol]!)
        }
    }

    func evmDeclare(contract: EVMContractSpec) throws -> EVMNamedAddress {
        try withEVM { face in
            try face.chain.declare(contract, createdIn: nil)
            return EVMNamedAddress(name: contract.name, address: face.chain.names[contract.name]!)
        }
    }

    func addEVMFault(_ fault: EVMFault) throws { try withEVM { try $0.faults.add(fault) } }

    func clearEVMFaults() throws { try withEVM { $0.faults.clear() } }

    func evmFaults() throws -> [EVMFault] { try withEVM { $0.faults.faults } }

    func evmRequests() throws -> [EVMRequestRecord] { try withEVM { $0.log } }

    func resetEVMRequests() throws { try withEVM { $0.resetLog() } }
}

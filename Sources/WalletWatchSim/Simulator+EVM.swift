/// The EVM chain in Swift: where its faces are served, and the control API's changes (each
/// method does what the matching `/control/evm` endpoint does). They need a scenario with an
/// `evm` section and throw (404's error) without one.
extension Simulator {
    /// The JSON-RPC endpoint (`http://127.0.0.1:PORT/evm`): an `evm` source's `url`.
    public var evmURL: String { baseURL + "/evm" }

    /// Etherscan's API V2 (`.../etherscan/v2/api`): an `evm` source's `history_url` with
    /// `history = "etherscan"`.
    public var etherscanURL: String { baseURL + "/etherscan/v2/api" }

    /// Blockscout's Etherscan-compatible API (`.../blockscout/api`).
    public var blockscoutURL: String { baseURL + "/blockscout/api" }

    /// The chain's heights, names and mempool.
    public func evmSummary() async throws -> EVMChainSummary { try await state.evmSummary() }

    /// The address of a named account, token or contract (or `faucet`).
    public func evmAddress(_ name: String) async throws -> EVMAddress {
        guard let address = try await evmSummary().address(of: name) else { throw SimulatorError(.notFound, "the EVM chain names no \(name)") }
        return address
    }

    /// Signs and sends a transaction: mined at once in a block of its own unless `spec.mine` is false.
    @discardableResult
    public func sendEVM(_ spec: EVMTransactionSpec) async throws -> EVMSentTransaction { try await state.evmSend(spec) }

    /// Where a transaction stands (mined or waiting).
    public func evmTransaction(_ hash: String) async throws -> EVMSentTransaction {
        guard let parsed = EVMHash(hash) else { throw SimulatorError(.invalid, "\(hash) is not a transaction hash") }
        return try await state.evmTransaction(parsed)
    }

    /// Mines `blocks` blocks, the first taking the mempool (and, when given, at `timestamp`).
    @discardableResult
    public func mineEVM(blocks: Int = 1, timestamp: Int64? = nil) async throws -> EVMMineReply {
        try await state.evmMine(blocks: blocks, timestamp: timestamp)
    }

    /// Replaces the last `depth` blocks (see ``EVMReorgBody``).
    @discardableResult
    public func reorgEVM(depth: Int, blocks: Int? = nil, drop: [String] = [], force: Bool = false) async throws -> EVMReorgReply {
        let hashes = try drop.map { text in
            guard let hash = EVMHash(text) else { throw SimulatorError(.invalid, "\(text) is not a transaction hash") }
            return hash
        }
        return try await state.evmReorg(EVMReorgBody(depth: depth, blocks: blocks, drop: hashes, force: force))
    }

    /// Sets how far below the tip `finalized` and `safe` are.
    @discardableResult
    public func setEVMFinality(depth: Int? = nil, safeDepth: Int? = nil) async throws -> EVMChainSummary {
        try await state.evmSetFinality(EVMFinalityBody(finalityDepth: depth, safeDepth: safeDepth))
    }

    /// Names a new account (fund it with a transfer).
    @discardableResult
    public func addEVMAccount(_ name: String, address: EVMAddress? = nil) async throws -> EVMAddress {
        try await state.evmDeclare(account: EVMAccountSpec(name: name, address: address)).address
    }

    /// Declares a token without code (a `create` transaction deploys it).
    @discardableResult
    public func addEVMToken(_ token: EVMTokenSpec) async throws -> EVMAddress { try await state.evmDeclare(token: token).address }

    /// Declares a forwarding contract without code (a `create` transaction deploys it).
    @discardableResult
    public func addEVMContract(_ contract: EVMContractSpec) async throws -> EVMAddress { try await state.evmDeclare(contract: contract).address }

    /// Adds an EVM fault; every matching one applies to a call.
    public func addEVMFault(_ fault: EVMFault) async throws { try await state.addEVMFault(fault) }

    /// Adds an EVM fault of `kind` (on the calls it changes unless `method` says which).
    public func addEVMFault(_ kind: EVMFaultKind, on method: String? = nil, times: Int? = nil) async throws {
        try await state.addEVMFault(EVMFault(kind, on: method, times: times))
    }

    /// Removes every EVM fault.
    public func clearEVMFaults() async throws { try await state.clearEVMFaults() }

    /// The EVM faults still active.
    public func evmFaults() async throws -> [EVMFault] { try await state.evmFaults() }

    /// Every EVM call since start or the last reset, oldest first.
    public func evmRequests() async throws -> [EVMRequestRecord] { try await state.evmRequests() }

    /// Empties the EVM request log (and numbers HTTP requests from 1 again).
    public func resetEVMRequests() async throws { try await state.resetEVMRequests() }
}

/// The Arkade faces driven from Swift, as the control API's `/control/arkade` endpoints do.
extension Simulator {
    /// A payment to a Fulmine `wallet` or an Ark `address`; the new VTXO's outpoint (`txid:vout`).
    @discardableResult
    public func arkadeReceive(wallet: String? = nil, address: String? = nil, amount: Int64, batch: Bool = false) async throws -> String {
        try await state.arkadeReceive(wallet: wallet, address: address, amount: amount, batch: batch).outpoint
    }

    /// Spends a VTXO, `change` coming back to its script; the Ark txid.
    @discardableResult
    public func arkadeSpend(_ outpoint: String, change: Int64 = 0) async throws -> String {
        try await state.arkadeSpend(outpoint: outpoint, change: change)
    }

    /// Marks a VTXO swept by the server.
    public func arkadeSweep(_ outpoint: String) async throws { _ = try await state.arkadeMark(outpoint: outpoint, swept: true) }

    /// Marks a VTXO unrolled on-chain.
    public func arkadeUnroll(_ outpoint: String) async throws { _ = try await state.arkadeMark(outpoint: outpoint, swept: false) }

    /// A pending boarding deposit to a Fulmine wallet; its txid.
    public func arkadeBoard(wallet: String, amount: Int64) async throws -> String {
        try await state.arkadeBoard(wallet: wallet, amount: amount)
    }

    /// Settles a boarding deposit into a batch; the new VTXO's outpoint.
    @discardableResult
    public func arkadeSettle(wallet: String, boardingTxid: String) async throws -> String {
        try await state.arkadeSettle(wallet: wallet, boardingTxid: boardingTxid).outpoint
    }

    /// Sets (nil: clears) the Arkade faces' fault.
    public func setArkadeFault(_ fault: ArkadeFault?) async { await state.setArkadeFault(fault) }

    /// Ends every open Arkade stream; how many were open.
    @discardableResult
    public func endArkadeStreams() async -> Int { await state.finishArkadeStreams() }

    /// How many Arkade streams are open.
    public func arkadeStreamCount() async -> Int { await state.arkadeStreamCount() }

    /// The Ark address of an x-only `key` under the simulated server.
    public func arkadeAddress(ofKey key: [UInt8]) async -> String { await state.arkade.address(ofKey: key) }

    /// The Ark address a Fulmine wallet receives on (made when new).
    public func fulmineAddress(_ wallet: String) async -> String { await state.fulmineAddress(wallet) }
}

extension SimulatorState {
    func fulmineAddress(_ wallet: String) -> String { arkade.address(ofKey: arkade.wallet(wallet).key) }
}

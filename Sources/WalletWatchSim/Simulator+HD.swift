import WalletWatchBitcoin

/// One of an HD wallet's two chains, as the simulator's control API names them.
public enum HDChain: String, Sendable, Codable {
    /// The receive chain (the first element of `<0;1>`).
    case receive
    /// The change chain.
    case change

    var wallet: HDWallet.Chain { self == .receive ? .receive : .change }
}

extension Simulator {
    /// Adds a deposit from the faucet to `index` of `chain` of the scenario's HD wallet `wallet`
    /// (`value` sats, else a random amount), mined at `height` or in the mempool.
    @discardableResult
    public func hdDeposit(wallet: String, chain: HDChain = .receive, index: Int, value: Int64? = nil, height: Int? = nil) async throws -> EsploraTxSpec {
        try await state.hdDeposit(wallet: wallet, chain: chain.wallet, index: index, value: value, height: height)
    }

    /// Adds a spend of the HD wallet's oldest coins paying `pay` sats to someone outside (0: to
    /// no one, a transfer to itself; nil: half the oldest coin), its change to `changeIndex`.
    @discardableResult
    public func hdSpend(wallet: String, pay: Int64? = nil, changeIndex: Int, height: Int? = nil) async throws -> EsploraTxSpec {
        try await state.hdSpend(wallet: wallet, pay: pay, changeIndex: changeIndex, height: height)
    }

    /// The address at `index` of `chain` of the HD wallet `wallet`.
    public func hdAddress(wallet: String, chain: HDChain = .receive, index: Int) async throws -> String {
        try await state.hdAddress(wallet: wallet, chain: chain.wallet, index: index)
    }
}

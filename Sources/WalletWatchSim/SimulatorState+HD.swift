import WalletWatchBitcoin

extension SimulatorState {
    /// A deposit from the faucet to `index` of `chain` of the HD wallet `name`, mined at `height`
    /// or in the mempool; added to the chain and returned.
    func hdDeposit(wallet name: String, chain hdChain: HDWallet.Chain, index: Int, value: Int64?, height: Int?) throws -> EsploraTxSpec {
        var wallet = try existingHDWallet(name)
        defer { hdWallets[name] = wallet }
        let transaction = try chain.deposit(to: &wallet, chain: hdChain, index: index, value: value, height: height)
        chainChanged()
        return transaction
    }

    /// A spend of the HD wallet `name`'s oldest coins paying `pay` sats outside (0: none, nil:
    /// half the oldest coin) with the change to `changeIndex`; added to the chain and returned.
    func hdSpend(wallet name: String, pay: Int64?, changeIndex: Int, height: Int?) throws -> EsploraTxSpec {
        var wallet = try existingHDWallet(name)
        defer { hdWallets[name] = wallet }
        let transaction = try chain.spend(from: &wallet, pay: pay, changeIndex: changeIndex, height: height)
        chainChanged()
        return transaction
    }

    /// The address at `index` of `chain` of the HD wallet `name`.
    func hdAddress(wallet name: String, chain: HDWallet.Chain, index: Int) throws -> String {
        var wallet = try existingHDWallet(name)
        let address = try wallet.address(chain, index)
        hdWallets[name] = wallet
        return address
    }

    private func existingHDWallet(_ name: String) throws -> SimulatedHDWallet {
        guard let wallet = hdWallets[name] else { throw SimulatorError(.notFound, "no HD wallet named \(name)") }
        return wallet
    }
}

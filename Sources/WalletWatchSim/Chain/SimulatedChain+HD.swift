import WalletWatchBitcoin

extension SimulatedChain {
    /// An HD wallet of `scenario` and its history: deposit k, then spend k, one block each, the
    /// last one block below the tip (the first at block 2 at the lowest: the faucet's first coin
    /// is block 1's coinbase); then the mempool deposits.
    mutating func addHistory(of scenario: HDWalletScenario) throws -> SimulatedHDWallet {
        var wallet = SimulatedHDWallet(name: scenario.name, wallet: try scenario.wallet(), seed: scenario.seed)
        let events = scenario.receive.count + scenario.change.count
        var height = max(2, tip - events)
        for step in 0..<max(scenario.receive.count, scenario.change.count) {
            if step < scenario.receive.count {
                try deposit(to: &wallet, chain: .receive, index: scenario.receive[step], value: nil, height: height)
                height = min(max(tip, 2), height + 1)
            }
            if step < scenario.change.count {
                try spend(from: &wallet, pay: nil, changeIndex: scenario.change[step], height: height)
                height = min(max(tip, 2), height + 1)
            }
        }
        for index in scenario.mempoolReceive {
            try deposit(to: &wallet, chain: .receive, index: index, value: nil, height: nil)
        }
        return wallet
    }

    /// A payment from the faucet to `index` of `chain` of `wallet` (`value` sats, else an amount
    /// drawn from its seed), mined at `height` or in the mempool.
    @discardableResult
    mutating func deposit(to wallet: inout SimulatedHDWallet, chain: HDWallet.Chain, index: Int, value: Int64?, height: Int?) throws -> EsploraTxSpec {
        let amount = try wallet.depositAmount(value)
        return try pay([try wallet.output(chain, index, value: amount)], height: height)
    }

    /// A payment of `pay` sats from `wallet` to someone outside (half of its oldest coin when
    /// nil; 0 pays no one: everything goes to the change address, a transfer to the wallet
    /// itself), with the change to `changeIndex` of the change chain, from its oldest coins that
    /// cover it: mined no later than `height`, or any for a mempool spend.
    @discardableResult
    mutating func spend(from wallet: inout SimulatedHDWallet, pay: Int64?, changeIndex: Int, height: Int?) throws -> EsploraTxSpec {
        _ = try wallet.output(.change, changeIndex, value: 0)
        var available = coins(of: wallet, spendableAt: height)
        guard let first = Self.takeOldest(&available) else { throw SimulatorError(.conflict, "HD wallet \(wallet.name) has no coins to spend") }
        let amount = pay ?? ledger.output(first.outpoint).map { $0.value / 2 } ?? 0
        guard amount >= 0 else { throw SimulatorError(.invalid, "a spend pays 0 sats or more") }
        let outputCount = amount > 0 ? 2 : 1
        var inputs = [first]
        var total = ledger.output(first.outpoint)?.value ?? 0
        while total < amount + Faucet.fee(inputs: inputs.count, outputs: outputCount) + 1_000 {
            guard let coin = Self.takeOldest(&available) else {
                throw SimulatorError(.conflict, "HD wallet \(wallet.name) holds \(total) sats, not enough to pay \(amount) and a fee")
            }
            inputs.append(coin)
            total += ledger.output(coin.outpoint)?.value ?? 0
        }
        var outputs: [ChainOutput] = []
        if amount > 0 { outputs.append(wallet.outsideOutput(value: amount)) }
        outputs.append(try wallet.output(.change, changeIndex, value: total - amount - Faucet.fee(inputs: inputs.count, outputs: outputCount)))
        let spent = inputs.map { coin in
            ChainCoin(outpoint: coin.outpoint, value: ledger.output(coin.outpoint)?.value ?? 0, address: wallet.scripthashes[coin.scripthash] ?? "")
        }
        return try addPayment(spending: spent, paying: outputs, height: height)
    }

    /// One of an HD wallet's unspent outputs, and where it sorts.
    private struct WalletCoin {
        let key: ChainKey
        let outpoint: Outpoint
        let scripthash: String
    }

    /// Removes and returns the oldest of `coins` (by chain position, then output index).
    private static func takeOldest(_ coins: inout [WalletCoin]) -> WalletCoin? {
        guard let index = coins.indices.min(by: { (coins[$0].key, coins[$0].outpoint.vout) < (coins[$1].key, coins[$1].outpoint.vout) }) else {
            return nil
        }
        return coins.remove(at: index)
    }

    /// The wallet's unspent outputs that a transaction mined at `height` may spend (mined no
    /// later), or all of them for a mempool transaction; unordered.
    private func coins(of wallet: SimulatedHDWallet, spendableAt height: Int?) -> [WalletCoin] {
        var found: [WalletCoin] = []
        for scripthash in wallet.scripthashes.keys {
            for outpoint in ledger.unspentOutputs[scripthash] ?? [] {
                guard let transaction = ledger.transaction(outpoint.txid) else { continue }
                if let height, (transaction.height ?? Int.max) > height { continue }
                found.append(WalletCoin(key: transaction.chainKey, outpoint: outpoint, scripthash: scripthash))
            }
        }
        return found
    }
}

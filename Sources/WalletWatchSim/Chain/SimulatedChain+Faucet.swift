import WalletWatchBitcoin

extension SimulatedChain {
    /// A real payment from the faucet to `outputs` (any addresses, of any network), mined at
    /// `height` or in the mempool, with `fee` sats (default: about 1 sat/vB); the change goes
    /// back to the faucet. Returns it as Esplora lists it.
    @discardableResult
    mutating func pay(_ outputs: [EsploraTxIO], height: Int?, fee: Int64? = nil) throws -> EsploraTxSpec {
        try pay(try Self.checked(outputs), height: height, fee: fee)
    }

    /// The same with outputs whose scripts are known.
    @discardableResult
    mutating func pay(_ outputs: [ChainOutput], height: Int?, fee: Int64? = nil) throws -> EsploraTxSpec {
        guard !outputs.isEmpty else { throw SimulatorError(.invalid, "a payment needs an output") }
        if let fee, fee < 0 { throw SimulatorError(.invalid, "a fee is 0 sats or more") }
        if let height { try checkHeight(height) }
        let amount = outputs.reduce(0) { $0 + $1.value }
        var coins: [ChainCoin] = []
        var total: Int64 = 0
        var cost: Int64 { amount + (fee ?? Faucet.fee(inputs: coins.count, outputs: outputs.count + 1)) + Faucet.dust }
        while total < cost {
            guard let coin = nextFaucetCoin(for: height, excluding: Set(coins.map(\.outpoint))) else {
                let block = height.map { "block \($0)" } ?? "the mempool"
                throw SimulatorError(.conflict, "the faucet has no coin mined below \(block) to pay \(amount) sats (coinbases start at block 1): pay at a higher height, or raise the tip first")
            }
            coins.append(coin)
            total += coin.value
        }
        let change = total - amount - (fee ?? Faucet.fee(inputs: coins.count, outputs: outputs.count + 1))
        return try addPayment(spending: coins, paying: outputs + [ChainOutput(address: faucet.address, value: change, script: faucet.script)],
                              height: height)
    }

    /// `outputs` with their scripts, refused when an address is not one or a value is dust.
    static func checked(_ outputs: [EsploraTxIO]) throws -> [ChainOutput] {
        try outputs.map { output in
            guard let checked = ChainOutput(output) else { throw SimulatorError(.invalid, "\(output.address) is not a Bitcoin address") }
            guard output.value >= Faucet.dust else {
                throw SimulatorError(.invalid, "an output of \(output.value) sats is below the dust limit (\(Faucet.dust))")
            }
            return checked
        }
    }

    /// The next faucet coin a payment mined at `height` (nil: in the mempool) may spend: the
    /// youngest mined below it, change or coinbase, a coinbase only once 100 blocks deep
    /// (Bitcoin's coinbase maturity, which also keeps shallow reorgs clear of spent coinbases);
    /// failing that, the youngest younger coinbase. Taking the youngest keeps older coins for
    /// payments in older blocks. Mempool payments spend mined coins only, so their Electrum
    /// height is 0.
    mutating func nextFaucetCoin(for height: Int?, excluding chosen: Set<Outpoint>) -> ChainCoin? {
        // The payment's block: a coin must be mined below it, and coinbases exist up to the tip.
        let block = height ?? tip + 1
        let youngest = min(block - 1, tip)
        for candidate in stride(from: youngest, through: 1, by: -1) {
            if let coin = unspentChange(at: candidate, excluding: chosen) { return coin }
            if candidate <= block - 100, let coin = unspentCoinbase(at: candidate, excluding: chosen) { return coin }
        }
        for candidate in stride(from: youngest, through: max(1, block - 99), by: -1) {
            if let coin = unspentCoinbase(at: candidate, excluding: chosen) { return coin }
        }
        return nil
    }

    /// The latest unspent faucet output of block `height`'s transactions other than its coinbase.
    private func unspentChange(at height: Int, excluding chosen: Set<Outpoint>) -> ChainCoin? {
        for transaction in ledger.block(at: height).reversed() where !transaction.isCoinbase {
            for (vout, scripthash) in transaction.outputScripthashes.enumerated().reversed() where scripthash == faucet.scripthash {
                let outpoint = Outpoint(txid: transaction.txid, vout: vout)
                guard ledger.spender(of: outpoint) == nil, !chosen.contains(outpoint) else { continue }
                return ChainCoin(outpoint: outpoint, value: transaction.raw.outputs[vout].value, address: faucet.address)
            }
        }
        return nil
    }

    /// Block `height`'s coinbase output when nothing spends it (put in the ledger to be spent).
    private mutating func unspentCoinbase(at height: Int, excluding chosen: Set<Outpoint>) -> ChainCoin? {
        if let txid = ledger.coinbases[height] {
            let outpoint = Outpoint(txid: txid, vout: 0)
            guard ledger.spender(of: outpoint) == nil, !chosen.contains(outpoint), let output = ledger.output(outpoint) else { return nil }
            return ChainCoin(outpoint: outpoint, value: output.value, address: faucet.address)
        }
        let txid = addCoinbase(at: height)
        let outpoint = Outpoint(txid: txid, vout: 0)
        return ChainCoin(outpoint: outpoint, value: ledger.output(outpoint)?.value ?? 0, address: faucet.address)
    }
}

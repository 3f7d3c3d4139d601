import WalletWatchBitcoin
import WalletWatchCore

extension ElectrumBackend {
    /// Turns the histories read in this pass into the wallet's transactions (SPEC.md section 21):
    /// each one parsed from its raw form (stored by an earlier pass, or fetched now and checked
    /// against its txid), its inputs valued from the wallet's own outputs, its date from its
    /// block's header. It also reports what must be reported every pass (the mempool
    /// transactions of scripts whose status did not move) and what a reorg took out of a block
    /// (back to pending until it confirms again, failed by the next pass if it is gone).
    public func complete(_ readings: [String: ScriptReading], now: Instant) async throws -> ChainRead {
        let before = session.connection.counts
        let changed = histories
        let byScript = Dictionary(readings.values.map { ($0.address.script, $0.address) }) { first, _ in first }
        let walletScripts = Dictionary(byScript.values.map { ($0.script, $0.address) }) { first, _ in first }
        var records = ChainRecords()
        records.histories = changed.mapValues(\.history)

        // What earlier passes listed: the changed scripts' old histories (what a reorg took out),
        // and the histories of unchanged scripts with mempool transactions (reported again).
        let unchangedPending = byScript.values.filter { changed[$0.script] == nil && $0.activity.mempoolTxCount > 0 }.map(\.script)
        let stored = try await store.histories(Array(changed.keys) + unchangedPending)
        let current = Set(changed.values.flatMap { $0.history.map(\.txid) })
        var taken: [String: [String]] = [:]
        for (script, read) in changed {
            let listed = Set(read.history.map(\.txid))
            let gone = (stored[script] ?? []).filter { $0.isConfirmed && !listed.contains($0.txid) && !current.contains($0.txid) }.map(\.txid)
            if !gone.isEmpty { taken[script] = gone }
        }
        let candidates = Set(taken.values.joined())
        let reorged = candidates.subtracting(try await store.listedElsewhere(Array(candidates), Set(changed.keys)))

        // Every transaction needed, raw.
        var heights: [String: Int64] = [:]
        for read in changed.values { for entry in read.history { heights[entry.txid] = entry.height } }
        for script in unchangedPending { for entry in stored[script] ?? [] where !entry.isConfirmed { heights[entry.txid] = entry.height } }
        for txid in reorged { heights[txid] = 0 }
        var transactions = try await raw(Array(heights.keys), keepingFetched: &records)
        // The outputs their inputs spend: the wallet's own (stored, or read in this pass).
        let parents = Set(transactions.values.flatMap { $0.inputs.filter { !$0.isCoinbase }.map(\.previousTxid) }).subtracting(transactions.keys)
        for (txid, raw) in try await store.transactions(Array(parents)) {
            transactions[txid] = try storedTransaction(txid, raw)
        }
        // A spend of the wallet's with inputs of others (a payjoin, a coinjoin) needs their
        // parents for its fee; a payment received does not (its fee is the payer's).
        let spends = heights.keys.filter { txid in transactions[txid]!.inputs.contains { walletOutput($0, transactions, walletScripts) != nil } }
        let foreign = Set(spends.flatMap { transactions[$0]!.inputs.filter { !$0.isCoinbase }.map(\.previousTxid) }).subtracting(transactions.keys)
        transactions.merge(try await raw(Array(foreign), keepingFetched: &records)) { stored, _ in stored }

        let times = try await blockTimes(Set(heights.values.filter { $0 > 0 }), records: &records)
        let walletAddresses = Set(walletScripts.values)
        var built: [String: ChainTransaction] = [:]
        for (txid, height) in heights {
            built[txid] = try chainTransaction(txid, transactions, height: height, time: height > 0 ? times[height] : nil, walletScripts,
                                           walletAddresses)
        }

        var completed: [ScriptReading] = []
        for reading in readings.values {
            var reading = reading
            let script = reading.address.script
            if let read = changed[script] {
                let history = read.history.map { built[$0.txid]! }
                guard let activity = WalletSync.activity(of: reading.address.address, in: history) else {
                    throw session.connection.problem("the history of \(reading.address.address) adds up beyond any amount of bitcoin",
                                                     method: "blockchain.scripthash.get_history")
                }
                reading.address.activity = activity
                reading.address.firstUsedAt = reading.address.firstUsedAt ?? WalletSync.firstUse(history, now: now)
                reading.transactions = history + (taken[script] ?? []).filter(reorged.contains).map { built[$0]! }
            } else if unchangedPending.contains(script) {
                reading.transactions = (stored[script] ?? []).filter { !$0.isConfirmed }.compactMap { built[$0.txid] }
            }
            completed.append(reading)
        }
        let after = session.connection.counts
        return ChainRead(readings: completed, requests: after.requests - before.requests, roundTrips: after.roundTrips - before.roundTrips,
                         records: records)
    }

    /// The transactions `txids` parsed: stored ones from the store, the rest fetched (each
    /// checked against its txid) and added to `records` to be kept.
    private func raw(_ txids: [String], keepingFetched records: inout ChainRecords) async throws -> [String: RawTransaction] {
        guard !txids.isEmpty else { return [:] }
        var parsed: [String: RawTransaction] = [:]
        let stored = try await store.transactions(txids)
        for (txid, raw) in stored {
            parsed[txid] = try storedTransaction(txid, raw)
        }
        let missing = txids.filter { stored[$0] == nil }
        for (txid, fetched) in zip(missing, try await client.transactions(missing)) {
            parsed[txid] = fetched.transaction
            records.transactions[txid] = fetched.raw
        }
        return parsed
    }

    /// The time of the block at each height: stored headers, unless the tip shows that a reorg
    /// replaced them, and the rest fetched (one write) and added to `records`.
    private func blockTimes(_ heights: Set<Int64>, records: inout ChainRecords) async throws -> [Int64: Int64] {
        let tip = session.tip
        let check = [tip.height - 1, tip.height].filter { $0 >= 0 }
        var known = try await store.headers(Array(heights.union(check)))
        // The tip's parent as stored is not the tip's parent: a reorg replaced stored blocks.
        // How deep is unknown without asking; the last 100 are forgotten and read again.
        let parentMatches = known[tip.height - 1].map { $0.hash == tip.header.previousHashHex } ?? true
        let tipMatches = known[tip.height].map { $0.hash == tip.header.hashHex } ?? true
        if !parentMatches || !tipMatches {
            let from = max(0, tip.height - 100)
            records.headersInvalidFrom = from
            known = known.filter { $0.key < from }
        }
        var times = known.filter { heights.contains($0.key) }.mapValues(\.time)
        let missing = heights.filter { times[$0] == nil }.sorted()
        for (height, header) in zip(missing, try await client.headers(missing)) {
            times[height] = Int64(header.time)
            records.headers[height] = StoredBlockHeader(hash: header.hashHex, time: Int64(header.time))
        }
        records.headers[tip.height] = StoredBlockHeader(hash: tip.header.hashHex, time: Int64(tip.header.time))
        return times
    }

    /// The wallet's address that `input` spends from, when the output it spends is the wallet's.
    private func walletOutput(_ input: RawTransaction.Input, _ transactions: [String: RawTransaction],
                              _ walletScripts: [String: String]) -> (address: String, value: Int64)? {
        guard !input.isCoinbase, let parent = transactions[input.previousTxid], Int(input.previousIndex) < parent.outputs.count else { return nil }
        let output = parent.outputs[Int(input.previousIndex)]
        guard let address = walletScripts[Hex.encode(output.scriptPubKey)] else { return nil }
        return (address, output.value)
    }

    /// A transaction an earlier pass stored, read with the same bounds as a fetched one (a
    /// version before them may have stored one beyond them).
    private func storedTransaction(_ txid: String, _ raw: [UInt8]) throws -> RawTransaction {
        do {
            return try RawTransaction.bounded(raw)
        } catch {
            throw session.connection.problem("the stored transaction \(txid) \(error); `walletwatch ingest --full` reads it again",
                                             method: "blockchain.transaction.get")
        }
    }

    /// `txid` as the wallet sees it: its inputs valued where the wallet owns what they spend (or
    /// their parents were fetched), its outputs' addresses, its fee when every input's value is
    /// known, its block's height and time (a height of 0 or -1: in the mempool). Its inputs'
    /// values must add up within the 21 million BTC that can exist and cover its outputs (each
    /// parent is checked against its txid, so only an invalid transaction spends more).
    private func chainTransaction(_ txid: String, _ transactions: [String: RawTransaction], height: Int64, time: Int64?,
                                  _ walletScripts: [String: String], _ walletAddresses: Set<String>) throws -> ChainTransaction {
        let transaction = transactions[txid]!
        var inputValues: Int64? = 0
        var inputsBeyondSupply = false
        func count(_ value: Int64) {
            guard let total = inputValues else { return }
            inputValues = BitcoinSupply.add(total, value)
            if inputValues == nil { inputsBeyondSupply = true }
        }
        let inputs = transaction.inputs.map { input -> ChainTransaction.Leg in
            if let own = walletOutput(input, transactions, walletScripts) {
                count(own.value)
                return ChainTransaction.Leg(address: own.address, value: own.value)
            }
            guard !input.isCoinbase, let parent = transactions[input.previousTxid], Int(input.previousIndex) < parent.outputs.count else {
                inputValues = nil
                return ChainTransaction.Leg(address: nil, value: 0)
            }
            let output = parent.outputs[Int(input.previousIndex)]
            count(output.value)
            return ChainTransaction.Leg(address: Address(scriptPubKey: output.scriptPubKey, network: network)?.description, value: output.value)
        }
        // Bounded when the transaction was read.
        let paid = BitcoinSupply.sum(transaction.outputs.lazy.map(\.value)) ?? 0
        guard !inputsBeyondSupply, inputValues.map({ $0 >= paid }) ?? true else {
            throw session.connection.problem(
                "transaction \(txid) spends inputs worth \(inputsBeyondSupply ? "more than 21 million BTC" : "\(inputValues ?? 0) sat") and pays \(paid) sat: no valid transaction does",
                method: "blockchain.transaction.get")
        }
        let outputs = transaction.outputs.map { output in
            ChainTransaction.Leg(address: walletScripts[Hex.encode(output.scriptPubKey)]
                                    ?? Address(scriptPubKey: output.scriptPubKey, network: network)?.description,
                                 value: output.value)
        }
        let spendsOwn = inputs.contains { $0.address.map(walletAddresses.contains) == true }
        let fee = spendsOwn ? inputValues.map { $0 - paid } : nil
        return ChainTransaction(txid: txid, inputs: inputs, outputs: outputs, fee: fee, confirmed: height > 0,
                                blockHeight: height > 0 ? height : nil, blockTime: time)
    }
}

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

        // Every confirmed transaction reported is proven in a verified header before it is
        // dated by it: a server's word alone never makes a payment confirmed.
        let confirmed = heights.filter { $0.value > 0 }
        let headers = try await HeaderChainSync(client: client, chain: session.chain, store: store,
                                                latestTime: now.millisecondsSinceEpoch / 1000 + HeaderChainSync.futureLimit, full: fullPass)
            .headers(at: Set(confirmed.values), tip: session.tip, records: &records)
        try await prove(confirmed, in: headers, records: &records)
        let times = headers.mapValues { Int64($0.time) }
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
                    throw session.connection.problem("the history of \(reading.address.label) adds up beyond any amount of bitcoin",
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

    /// Checks that each of `confirmed` (txid and height) is in its block: its Merkle branch
    /// (`blockchain.transaction.get_merkle`, one write for all) must lead from its txid to the
    /// Merkle root of the verified header at that height. A proof stored by an earlier pass
    /// holds while that header is the one stored (a reorg replaces it); a full pass asks again.
    private func prove(_ confirmed: [String: Int64], in headers: [Int64: BlockHeader], records: inout ChainRecords) async throws {
        let stored = fullPass ? [:] : try await store.proofs(Array(confirmed.keys))
        let wanted = confirmed.filter { txid, height in stored[txid] != TransactionProof(height: height, blockHash: headers[height]!.hashHex) }
            .sorted { $0.key < $1.key }
        let method = "blockchain.transaction.get_merkle"
        for ((txid, height), answer) in zip(wanted, try await client.merkleBranches(wanted.map { ($0.key, $0.value) })) {
            let header = headers[height]!
            guard answer.height == height else {
                throw session.connection.problem("the proof of transaction \(txid) is for block \(answer.height), not block \(height) where its history lists it",
                                                 method: method)
            }
            let root: [UInt8]
            do {
                root = try answer.branch.root(from: HeaderChainSync.internalOrder(txid))
            } catch {
                throw session.connection.problem("the proof of transaction \(txid) in block \(height) is forged: \(error)", method: method)
            }
            guard root == header.merkleRoot else {
                throw session.connection.problem(
                    "transaction \(txid) is not in block \(height): its proof leads to another Merkle root than the block's header (\(header.hashHex)); the server reports a payment the chain does not hold",
                    method: method)
            }
            records.proofs[txid] = TransactionProof(height: height, blockHash: header.hashHex)
        }
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

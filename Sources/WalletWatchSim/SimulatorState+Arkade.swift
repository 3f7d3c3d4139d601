import WalletWatchBitcoin

/// An open Arkade stream: what it is about, and where its messages go.
struct ArkadeStreamSink: Sendable {
    enum Topic: Sendable, Equatable {
        case fulmine(wallet: String)
        case arkd(subscription: String)
    }

    let topic: Topic
    let continuation: AsyncStream<[UInt8]>.Continuation
}

/// The Arkade faces' state changes: payments, spends, sweeps, faults, and the streams they reach.
extension SimulatorState {
    var arkadeNow: Int64 { clock.now().milliseconds / 1000 }

    // MARK: changes

    /// A payment of `amount` to a Fulmine wallet or an Ark address: a new VTXO, pushed.
    func arkadeReceive(wallet: String?, address: String?, amount: Int64, batch: Bool) throws -> SimArkVtxo {
        let vtxo = try arkade.receive(wallet: wallet, address: address, amount: amount, batch: batch, now: clock.now())
        pushArkade(txid: vtxo.txid, scripts: [vtxo.script], newVtxos: [vtxo], spentVtxos: [])
        return vtxo
    }

    /// Spends a VTXO in an Ark transaction paying out all but `change`, which comes back to the
    /// same script as a new preconfirmed VTXO. Returns the Ark txid.
    func arkadeSpend(outpoint: String, change: Int64) throws -> String {
        guard let index = arkade.vtxos.firstIndex(where: { $0.outpoint == outpoint }) else {
            throw SimulatorError(.notFound, "no VTXO \(outpoint)")
        }
        var vtxo = arkade.vtxos[index]
        guard !vtxo.isSpent, !vtxo.isUnrolled else { throw SimulatorError(.conflict, "VTXO \(outpoint) is already spent or unrolled") }
        guard change >= 0, change < vtxo.amount else { throw SimulatorError(.invalid, "change must be at least 0 and less than the VTXO's amount") }
        let arkTxid = arkade.newTxid()
        vtxo.isSpent = true
        vtxo.arkTxid = arkTxid
        vtxo.spentBy = arkade.newTxid()
        arkade.vtxos[index] = vtxo
        var created: [SimArkVtxo] = []
        if change > 0 {
            let back = SimArkVtxo(txid: arkTxid, vout: 1, amount: change, script: vtxo.script, createdAt: arkadeNow,
                                  expiresAt: vtxo.expiresAt, isPreconfirmed: true, commitmentTxids: vtxo.commitmentTxids)
            arkade.vtxos.append(back)
            created.append(back)
        }
        if let name = arkade.wallets.values.first(where: { $0.script == vtxo.script })?.name {
            arkade.wallets[name]!.transactions.append(SimFulmineTx(date: clock.now(), amount: vtxo.amount - change, kind: .sent, arkTxid: arkTxid))
        }
        pushArkade(txid: arkTxid, scripts: [vtxo.script], newVtxos: created, spentVtxos: [vtxo])
        return arkTxid
    }

    /// Marks a VTXO swept by the server, or unrolled on-chain by its owner.
    func arkadeMark(outpoint: String, swept: Bool) throws -> SimArkVtxo {
        guard let index = arkade.vtxos.firstIndex(where: { $0.outpoint == outpoint }) else {
            throw SimulatorError(.notFound, "no VTXO \(outpoint)")
        }
        if swept { arkade.vtxos[index].isSwept = true } else { arkade.vtxos[index].isUnrolled = true }
        let vtxo = arkade.vtxos[index]
        pushArkade(txid: arkade.newTxid(), scripts: [vtxo.script], newVtxos: [], spentVtxos: swept ? [] : [vtxo], swept: swept ? [vtxo] : [])
        return vtxo
    }

    /// A boarding deposit to a Fulmine wallet, pending (in the mempool: no date) until settled.
    func arkadeBoard(wallet: String, amount: Int64) throws -> String {
        guard ArkadeWorld.isName(wallet), amount > 0 else { throw SimulatorError(.invalid, "a wallet name and a positive amount are needed") }
        _ = arkade.wallet(wallet)
        let txid = arkade.newTxid()
        arkade.wallets[wallet]!.transactions.append(SimFulmineTx(date: nil, amount: amount, kind: .received, boardingTxid: txid))
        return txid
    }

    /// Settles a wallet's boarding deposit into a batch: dated now, and a VTXO out of the batch.
    func arkadeSettle(wallet: String, boardingTxid: String) throws -> SimArkVtxo {
        guard let index = arkade.wallets[wallet]?.transactions.firstIndex(where: { $0.boardingTxid == boardingTxid && $0.settledBy.isEmpty }) else {
            throw SimulatorError(.notFound, "no pending boarding \(boardingTxid) in wallet \(wallet)")
        }
        let commitment = arkade.newTxid()
        arkade.wallets[wallet]!.transactions[index].settledBy = commitment
        arkade.wallets[wallet]!.transactions[index].date = clock.now()
        let amount = arkade.wallets[wallet]!.transactions[index].amount
        let script = arkade.wallets[wallet]!.script
        let vtxo = SimArkVtxo(txid: arkade.newTxid(), vout: 0, amount: amount, script: script, createdAt: arkadeNow, expiresAt: arkadeNow + 30 * 86_400,
                              isPreconfirmed: false, commitmentTxids: [commitment])
        arkade.vtxos.append(vtxo)
        pushArkade(txid: commitment, scripts: [script], newVtxos: [vtxo], spentVtxos: [])
        return vtxo
    }

    func setArkadeFault(_ fault: ArkadeFault?) { arkade.fault = fault }

    /// The fault of `kind` if one is set, counted as served.
    func takeArkadeFault(_ kind: ArkadeFault.Kind) -> Bool {
        guard let fault = arkade.fault, fault.kind == kind else { return false }
        if let times = fault.times {
            arkade.fault = times <= 1 ? nil : ArkadeFault(kind, times: times - 1)
        }
        return true
    }

    // MARK: streams

    func openArkadeStream(_ topic: ArkadeStreamSink.Topic) -> (Int, AsyncStream<[UInt8]>) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        nextArkadeStream += 1
        if isStopping || takeArkadeFault(.streamEnds) {
            continuation.finish()
        } else {
            arkadeStreams[nextArkadeStream] = ArkadeStreamSink(topic: topic, continuation: continuation)
        }
        return (nextArkadeStream, stream)
    }

    func closeArkadeStream(_ id: Int) { arkadeStreams.removeValue(forKey: id)?.continuation.finish() }

    /// Ends every open stream (the control API's way to test a reconnect; also at stop).
    @discardableResult
    func finishArkadeStreams() -> Int {
        let open = arkadeStreams.values
        arkadeStreams.removeAll()
        for sink in open { sink.continuation.finish() }
        return open.count
    }

    func arkadeStreamCount() -> Int { arkadeStreams.count }

    /// Sends one change to the streams it concerns: arkd subscriptions holding one of `scripts`,
    /// and Fulmine wallets that subscribed the address of one of them.
    private func pushArkade(txid: String, scripts: Set<String>, newVtxos: [SimArkVtxo], spentVtxos: [SimArkVtxo], swept: [SimArkVtxo] = []) {
        for sink in arkadeStreams.values {
            switch sink.topic {
            case .arkd(let id):
                guard let subscribed = arkade.subscriptions[id], !subscribed.isDisjoint(with: scripts) else { continue }
                let event = IndexerEventWire(
                    txid: txid, scripts: scripts.filter { subscribed.contains($0) }.sorted(),
                    newVtxos: newVtxos.map { $0.wire(indexer: true) }, spentVtxos: spentVtxos.map { $0.wire(indexer: true) },
                    sweptVtxos: swept.map { $0.wire(indexer: true) })
                if let bytes = try? WireEncoder.encode(SubscriptionMessageWire(event: event)) {
                    sink.continuation.yield(Array("data: ".utf8) + bytes + Array("\n\n".utf8))
                }
            case .fulmine(let name):
                guard let wallet = arkade.wallets[name] else { continue }
                let addresses = scripts.compactMap { script -> String? in
                    guard let key = Hex.decode(script.dropFirst(4)), key.count == 32 else { return nil }
                    let address = arkade.address(ofKey: key)
                    return wallet.subscribed.contains(address) ? address : nil
                }
                guard !addresses.isEmpty else { continue }
                let notification = FulmineNotificationWire(
                    addresses: addresses.sorted(), newVtxos: newVtxos.map { $0.wire(indexer: false) },
                    spentVtxos: spentVtxos.map { $0.wire(indexer: false) }, txid: txid, tx: "", checkpoints: [:])
                if let bytes = try? WireEncoder.encode(FulmineStreamResultWire(result: FulmineNotificationsResponseWire(notification: notification))) {
                    sink.continuation.yield(bytes + [10])
                }
            }
        }
    }

}

import WalletWatchBitcoin

extension ElectrumConnection {
    /// The protocol's methods, as ElectrumX answers them for versions 1.4 to 1.6, from the
    /// simulated chain. `fault` alters the answers it is about (a wrong transaction, a short
    /// header, a wrong status, a version outside 1.4-1.6).
    func answer(_ method: String, _ params: ElectrumParams, fault: ElectrumFaultKind?) async throws(ElectrumError) -> JSONValue {
        let version = session.withLockedValue { $0.version } ?? ElectrumVersion.minimum
        switch method {
        case "server.version":
            return try negotiate(params, fault: fault)
        case "server.ping":
            return .null
        case "server.features":
            return info.features
        case "server.banner":
            return .string(ElectrumServerInfo.banner)
        case "server.donation_address":
            return .string("")
        case "server.peers.subscribe", "mempool.get_fee_histogram":
            return .array([])
        case "blockchain.headers.subscribe":
            let tip = await tip(fault: fault)
            session.withLockedValue { $0.lastTipHash = tip.hash }
            return ElectrumWire.header(tip.height, Self.cut(tip.header, fault))
        case "blockchain.block.header":
            return try await blockHeader(params, fault: fault)
        case "blockchain.block.headers":
            return try await blockHeaders(params, version: version, fault: fault)
        case "blockchain.estimatefee":
            _ = try params.nonNegative(0, "number")
            if case .string(let mode)? = params[1, "mode"], !["CONSERVATIVE", "ECONOMICAL"].contains(mode.uppercased()) {
                throw .bad("unknown estimatefee mode: \(mode.uppercased())")
            }
            return .double(ChainFees.estimate)
        case "blockchain.relayfee" where version < ElectrumVersion(parts: [1, 6]):
            return .double(ChainFees.relay)
        case "mempool.get_info" where version >= ElectrumVersion(parts: [1, 6]):
            return ChainFees.mempoolInfo
        case "blockchain.scripthash.get_balance":
            let balance = await state.electrumBalance(try params.scripthash())
            return .object([.init("confirmed", .int(balance.confirmed)), .init("unconfirmed", .int(balance.unconfirmed))])
        case "blockchain.scripthash.get_history":
            return .array(await history(try params.scripthash(), fault: fault).map(Self.historyItem))
        case "blockchain.scripthash.get_mempool":
            return .array(await state.electrumHistory(try params.scripthash()).filter { $0.height <= 0 }.map(Self.historyItem))
        case "blockchain.scripthash.listunspent":
            return .array(await state.electrumUnspent(try params.scripthash()).map(Self.unspentItem))
        case "blockchain.scripthash.subscribe":
            return try await subscribe(params, fault: fault)
        case "blockchain.scripthash.unsubscribe" where version >= ElectrumVersion(parts: [1, 4, 2]):
            let scripthash = try params.scripthash()
            return .bool(session.withLockedValue { $0.statuses.removeValue(forKey: scripthash) != nil })
        case "blockchain.transaction.get":
            return try await transaction(params, fault: fault)
        case "blockchain.transaction.get_merkle":
            let txid = try params.txid()
            let height = try params.nonNegative(1, "height")
            let forged = forgedTransaction(txid, fault: fault) != nil
            let proof = forged ? try await state.electrumForgedMerkle(txid, height: height) : try await state.electrumMerkle(txid, height: height)
            return .object([.init("block_height", .int(Int64(height))), .init("merkle", .array(proof.branch.map(JSONValue.string))),
                            .init("pos", .int(Int64(proof.position)))])
        case "blockchain.transaction.id_from_pos":
            let height = try params.nonNegative(0, "height")
            let position = try params.nonNegative(1, "tx_pos")
            guard let merkle = params.boolean(2, "merkle", default: false) else { throw .bad("\"merkle\" must be a boolean") }
            let found = try await state.electrumTransaction(atHeight: height, position: position)
            guard merkle else { return .string(found.txid) }
            return .object([.init("tx_hash", .string(found.txid)), .init("merkle", .array(found.branch.map(JSONValue.string)))])
        case "blockchain.transaction.broadcast":
            let raw = params[0, "raw_tx"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
            throw .bad("the transaction was rejected by network rules.\n\nwalletwatch-sim does not relay transactions\n[\(raw)]")
        default:
            throw .unknownMethod(method)
        }
    }

    private func negotiate(_ params: ElectrumParams, fault: ElectrumFaultKind?) throws(ElectrumError) -> JSONValue {
        let seen = session.withLockedValue { session in
            defer { session.versionSeen = true }
            return session.versionSeen
        }
        guard !seen else { throw .bad("server.version already sent") }
        guard let version = ElectrumVersion.negotiate(params[1, "protocol_version"]) else {
            throw ElectrumError(ElectrumError.badRequest, "unsupported protocol version: \(ElectrumParams.python(params[1, "protocol_version"]))",
                                disconnects: true)
        }
        session.withLockedValue { $0.version = version }
        if case .version(let answered)? = fault { return .array([.string(ElectrumServerInfo.software), .string(answered)]) }
        return .array([.string(ElectrumServerInfo.software), .string(version.description)])
    }

    private func blockHeader(_ params: ElectrumParams, fault: ElectrumFaultKind?) async throws(ElectrumError) -> JSONValue {
        let height = try params.nonNegative(0, "height")
        guard try params.nonNegative(1, "cp_height", absent: 0) == 0 else {
            throw .bad("walletwatch-sim does not serve checkpoint proofs (cp_height)")
        }
        guard let header = await headers(from: height, count: 1, fault: fault).first else { throw .outOfRange(height) }
        return .string(Hex.encode(Self.cut(header, fault)))
    }

    private func blockHeaders(_ params: ElectrumParams, version: ElectrumVersion, fault: ElectrumFaultKind?) async throws(ElectrumError) -> JSONValue {
        let start = try params.nonNegative(0, "start_height")
        let count = min(try params.nonNegative(1, "count"), Self.maxHeaders)
        guard try params.nonNegative(2, "cp_height", absent: 0) == 0 else {
            throw .bad("walletwatch-sim does not serve checkpoint proofs (cp_height)")
        }
        let headers = await headers(from: start, count: count, fault: fault).map { Self.cut($0, fault) }
        let listed: JSONValue = version >= ElectrumVersion(parts: [1, 6])
            ? .array(headers.map { .string(Hex.encode($0)) }) : .string(Hex.encode(headers.joined()))
        return .object([.init("count", .int(Int64(headers.count))), .init(version >= ElectrumVersion(parts: [1, 6]) ? "headers" : "hex", listed),
                        .init("max", .int(Int64(Self.maxHeaders)))])
    }

    private func subscribe(_ params: ElectrumParams, fault: ElectrumFaultKind?) async throws(ElectrumError) -> JSONValue {
        let scripthash = try params.scripthash()
        let status = await state.electrumStatuses([scripthash])[scripthash] ?? nil
        session.withLockedValue { $0.statuses[scripthash] = status }
        if fault == .wrongStatus {
            return .string(ElectrumStatus.of([ScriptHistoryItem(txid: status ?? scripthash, height: -2, fee: nil)]) ?? "")
        }
        // A lying history comes with the status that hashes it: the lie is consistent.
        return ElectrumStatus.of(await history(scripthash, fault: fault)).map(JSONValue.string) ?? .null
    }

    /// `history` with its first entry listed again, one block later (the `repeated_entry` fault).
    static func repeatingFirst(_ history: [ScriptHistoryItem]) -> [ScriptHistoryItem] {
        guard let first = history.first else { return history }
        return history + [ScriptHistoryItem(txid: first.txid, height: first.height + 1, fee: first.fee)]
    }

    private func transaction(_ params: ElectrumParams, fault: ElectrumFaultKind?) async throws(ElectrumError) -> JSONValue {
        let txid = try params.txid()
        guard let verbose = params.boolean(1, "verbose", default: false) else { throw .bad("\"verbose\" must be a boolean") }
        if verbose {
            guard let described = await state.verboseTransaction(txid) else { throw Self.noSuchTransaction }
            return described
        }
        if let forged = forgedTransaction(txid, fault: fault) { return .string(Hex.encode(forged)) }
        guard var bytes = await state.rawTransaction(txid) else { throw Self.noSuchTransaction }
        if fault == .wrongTransaction, var raw = try? RawTransaction(parsing: bytes), !raw.outputs.isEmpty {
            // Another transaction: it parses, but its hash is not the txid asked for.
            raw.outputs[0].value += 1
            bytes = raw.serialized ?? bytes
        }
        return .string(Hex.encode(bytes))
    }

    /// ElectrumX's `MAX_CHUNK_SIZE`: at most this many headers per `blockchain.block.headers`.
    static let maxHeaders = 2016

    /// A header of the `short_header` fault's length, else as it is.
    private static func cut(_ header: [UInt8], _ fault: ElectrumFaultKind?) -> [UInt8] {
        guard case .shortHeader(let bytes)? = fault else { return header }
        return bytes <= header.count ? Array(header.prefix(max(0, bytes))) : header + [UInt8](repeating: 0, count: bytes - header.count)
    }

    /// ElectrumX relays Core's refusal of an unknown transaction this way.
    static let noSuchTransaction = ElectrumError(
        ElectrumError.daemonError,
        "daemon error: DaemonError({'code': -5, 'message': 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.'})")

    private static func historyItem(_ item: ScriptHistoryItem) -> JSONValue {
        var members: [JSONValue.Member] = [.init("tx_hash", .string(item.txid)), .init("height", .int(Int64(item.height)))]
        if let fee = item.fee { members.append(.init("fee", .int(fee))) }
        return .object(members)
    }

    private static func unspentItem(_ unspent: ScriptUnspent) -> JSONValue {
        .object([.init("tx_hash", .string(unspent.txid)), .init("tx_pos", .int(Int64(unspent.vout))),
                 .init("height", .int(Int64(unspent.height))), .init("value", .int(unspent.value))])
    }
}

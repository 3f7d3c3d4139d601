import WalletWatchBitcoin

/// The Bitcoin Core JSON-RPC face's methods: what ElectrumX 2.0.0 asks of its daemon
/// (`server/daemon.py`), answered from the chain as Core 31 would.
extension SimulatorState {
    /// Core's `getnetworkinfo` version: 31.0.0, the lowest ElectrumX 2.0.0 accepts
    /// (`MIN_REQUIRED_DAEMON_VERSION` in `lib/coins.py`).
    static let coreVersion = 310_000

    /// Answers one call.
    func coreCall(_ method: String, _ params: CoreRPCParams) throws(CoreRPCError) -> JSONValue {
        switch method {
        case "getblockcount":
            return .int(Int64(chain.tip))
        case "getbestblockhash":
            return .string(chain.blockHash(chain.tip))
        case "getblockhash":
            let height = try params.integer(0, "height")
            guard height >= 0, height <= chain.tip else { throw .heightOutOfRange }
            return .string(chain.blockHash(height))
        case "getblock":
            return try block(try params.hash(0, "blockhash"), verbosity: params.verbosity(1, "verbosity", absent: 1), headerOnly: false)
        case "getblockheader":
            return try block(try params.hash(0, "blockhash"), verbosity: params.verbosity(1, "verbose", absent: 1), headerOnly: true)
        case "getrawmempool":
            let mempool = chain.ledger.mempoolInOrder
            guard params.verbosity(0, "verbose", absent: 0) != 0 else { return .array(mempool.map { .string($0.txid) }) }
            return .object(mempool.map { .init($0.txid, .object([.init("vsize", .int(Int64(Self.vsize($0.raw)))),
                                                               .init("fees", .object([.init("base", .double(Self.btc($0.fee)))])),
                                                               .init("depends", .array($0.spends.filter { chain.ledger.mempool.contains($0.txid) }
                                                                   .map { .string($0.txid) }))])) })
        case "getrawtransaction":
            let txid = try params.hash(0, "txid")
            if params.verbosity(1, "verbosity", absent: 0) == 0 {
                guard let bytes = rawTransaction(txid) else { throw .noSuchTransaction }
                return .string(Hex.encode(bytes))
            }
            guard let described = verboseTransaction(txid) else { throw .noSuchTransaction }
            return described
        case "getnetworkinfo":
            return .object([
                .init("version", .int(Int64(Self.coreVersion))), .init("subversion", .string("/Satoshi:31.0.0(walletwatch-sim)/")),
                .init("protocolversion", .int(70016)), .init("localservices", .string("0000000000000c09")), .init("localrelay", .bool(true)),
                .init("networkactive", .bool(true)), .init("connections", .int(0)), .init("relayfee", .double(ChainFees.relay)),
                .init("incrementalfee", .double(ChainFees.relay)), .init("warnings", .array([])),
            ])
        case "getindexinfo":
            let synced: JSONValue = .object([.init("synced", .bool(true)), .init("best_block_height", .int(Int64(chain.tip)))])
            return .object([.init("txindex", synced), .init("txospenderindex", synced)])
        case "getblockchaininfo":
            return .object([
                .init("chain", .string(chain.network == .regtest ? "regtest" : chain.network.rawValue)), .init("blocks", .int(Int64(chain.tip))),
                .init("headers", .int(Int64(chain.tip))), .init("bestblockhash", .string(chain.blockHash(chain.tip))),
                .init("time", .int(chain.blockTime(chain.tip))), .init("verificationprogress", .int(1)),
                .init("initialblockdownload", .bool(false)), .init("pruned", .bool(false)), .init("warnings", .array([])),
            ])
        case "estimatesmartfee":
            guard params.count >= 1 else { throw .usage("estimatesmartfee conf_target ( \"estimate_mode\" )") }
            return .object([.init("feerate", .double(ChainFees.estimate)), .init("blocks", .int(Int64(max(1, try params.integer(0, "conf_target")))))])
        case "getmempoolinfo":
            let mempool = chain.ledger.mempoolInOrder
            var info: [JSONValue.Member] = [
                .init("loaded", .bool(true)), .init("size", .int(Int64(mempool.count))),
                .init("bytes", .int(Int64(mempool.reduce(0) { $0 + Self.vsize($1.raw) }))),
                .init("total_fee", .double(Self.btc(mempool.reduce(0) { $0 + $1.fee }))), .init("maxmempool", .int(300_000_000)),
            ]
            if case .object(let fees) = ChainFees.mempoolInfo { info += fees }
            return .object(info + [.init("unbroadcastcount", .int(0)), .init("fullrbf", .bool(true))])
        case "gettxspendingprevout":
            guard case .array(let outpoints)? = params[0, "outputs"] else { throw .invalidParameter("Invalid parameter, outputs are missing") }
            return .array(try outpoints.map { item throws(CoreRPCError) in try spending(item) })
        case "uptime":
            return .int(max(0, (clock.now().milliseconds - referenceTime.milliseconds) / 1000))
        default:
            throw .methodNotFound
        }
    }

    /// `getrawtransaction`'s verbose answer (also `blockchain.transaction.get` with `verbose`).
    func verboseTransaction(_ txid: String) -> JSONValue? {
        guard let transaction = chain.ledger.transaction(txid) else { return nil }
        let raw = transaction.raw
        var members: [JSONValue.Member] = [
            .init("txid", .string(txid)), .init("hash", .string(raw.wtxid ?? txid)), .init("version", .int(Int64(raw.version))),
            .init("size", .int(Int64(transaction.bytes.count))), .init("vsize", .int(Int64(Self.vsize(raw)))),
            .init("weight", .int(Int64(raw.weight ?? 0))), .init("locktime", .int(Int64(raw.lockTime))),
            .init("vin", .array(raw.inputs.map(Self.input))), .init("vout", .array(raw.outputs.enumerated().map { output($0.element, $0.offset) })),
            .init("hex", .string(Hex.encode(transaction.bytes))),
        ]
        if let height = transaction.height {
            let time = JSONValue.int(chain.blockTime(height))
            members += [.init("blockhash", .string(chain.blockHash(height))), .init("confirmations", .int(Int64(chain.tip - height + 1))),
                        .init("time", time), .init("blocktime", time)]
        }
        return .object(members)
    }

    private func block(_ hash: String, verbosity: Int, headerOnly: Bool) throws(CoreRPCError) -> JSONValue {
        guard chain.isReal, let (bytes, height, current) = chain.block(hash: hash) else { throw .blockNotFound }
        if verbosity == 0 { return .string(Hex.encode(headerOnly ? Array(bytes.prefix(BlockHeader.size)) : bytes)) }
        guard let header = try? BlockHeader(parsing: Array(bytes.prefix(BlockHeader.size))) else { throw .blockNotFound }
        var members: [JSONValue.Member] = [
            .init("hash", .string(hash)), .init("confirmations", .int(current ? Int64(chain.tip - height + 1) : -1)),
            .init("height", .int(Int64(height))), .init("version", .int(Int64(header.version))),
            .init("merkleroot", .string(Hex.encode(header.merkleRoot.reversed()))), .init("time", .int(Int64(header.time))),
            .init("nonce", .int(Int64(header.nonce))), .init("bits", .string(Self.eightHexDigits(header.bits))),
        ]
        if height > 0 { members.append(.init("previousblockhash", .string(header.previousHashHex))) }
        if current, height < chain.tip { members.append(.init("nextblockhash", .string(chain.blockHash(height + 1)))) }
        if !headerOnly {
            let txids = height == 0 ? [Network.genesisCoinbase.txid ?? ""] : chain.ledger.block(at: height).map(\.txid)
            members += [.init("nTx", .int(Int64(txids.count))), .init("tx", .array(txids.map(JSONValue.string)))]
        }
        return .object(members)
    }

    private func spending(_ item: JSONValue) throws(CoreRPCError) -> JSONValue {
        guard case .string(let txid)? = item["txid"], case .int(let vout)? = item["vout"] else {
            throw .invalidParameter("Invalid parameter, outputs need a txid and a vout")
        }
        var members: [JSONValue.Member] = [.init("txid", .string(txid)), .init("vout", .int(vout))]
        if let spender = chain.ledger.spender(of: Outpoint(txid: txid.lowercased(), vout: Int(vout))) {
            members.append(.init("spendingtxid", .string(spender)))
            if let height = chain.ledger.transaction(spender)?.height { members.append(.init("blockhash", .string(chain.blockHash(height)))) }
        }
        return .object(members)
    }

    private static func input(_ input: RawTransaction.Input) -> JSONValue {
        var members: [JSONValue.Member] = input.isCoinbase
            ? [.init("coinbase", .string(Hex.encode(input.scriptSig)))]
            : [.init("txid", .string(input.previousTxid)), .init("vout", .int(Int64(input.previousIndex))),
               .init("scriptSig", .object([.init("asm", .string("")), .init("hex", .string(Hex.encode(input.scriptSig)))]))]
        if !input.witness.isEmpty { members.append(.init("txinwitness", .array(input.witness.map { .string(Hex.encode($0)) }))) }
        members.append(.init("sequence", .int(Int64(input.sequence))))
        return .object(members)
    }

    private func output(_ output: RawTransaction.Output, _ index: Int) -> JSONValue {
        let script = OutputScript(script: output.scriptPubKey)
        var scriptPubKey: [JSONValue.Member] = [.init("hex", .string(script.hex)), .init("type", .string(script.coreType))]
        if let address = Address(scriptPubKey: output.scriptPubKey, network: chain.network) {
            scriptPubKey.insert(.init("address", .string(address.description)), at: 1)
        }
        return .object([.init("value", .double(Self.btc(output.value))), .init("n", .int(Int64(index))), .init("scriptPubKey", .object(scriptPubKey))])
    }

    private static func vsize(_ raw: RawTransaction) -> Int { ((raw.weight ?? 0) + 3) / 4 }

    private static func btc(_ sats: Int64) -> Double { Double(sats) / 100_000_000 }

    /// Eight lowercase hex digits, as Core writes a block's `bits`.
    private static func eightHexDigits(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}

import WalletWatchCore

/// Strict decoders for the Esplora responses walletwatch reads.
enum EsploraDecoding {
    static func summary(_ reader: inout JSONReader) throws -> AddressSummary {
        var chain, mempool: AddressStats?
        try reader.readObject { reader, key in
            if key.is("chain_stats") { chain = try stats(&reader) }
            else if key.is("mempool_stats") { mempool = try stats(&reader) }
            else { try reader.skipValue() }
        }
        guard let chain else { throw reader.missing("chain_stats") }
        guard let mempool else { throw reader.missing("mempool_stats") }
        return AddressSummary(chain: chain, mempool: mempool)
    }

    private static func stats(_ reader: inout JSONReader) throws -> AddressStats {
        var funded, spent, count: Int64?
        try reader.readObject { reader, key in
            if key.is("funded_txo_sum") { funded = try reader.readNonNegativeInt64() }
            else if key.is("spent_txo_sum") { spent = try reader.readNonNegativeInt64() }
            else if key.is("tx_count") { count = try reader.readNonNegativeInt64() }
            else { try reader.skipValue() }
        }
        guard let funded else { throw reader.missing("funded_txo_sum") }
        guard let spent else { throw reader.missing("spent_txo_sum") }
        guard let count else { throw reader.missing("tx_count") }
        // The sums grow with every coin that ever passed through; their difference is a balance.
        guard (funded - spent).magnitude <= BitcoinSupply.maximumSats.magnitude else {
            throw reader.error("funded_txo_sum - spent_txo_sum is \(funded - spent) sat, more than the 21 million BTC that can exist")
        }
        return AddressStats(fundedSum: funded, spentSum: spent, transactionCount: count)
    }

    static func transactions(_ reader: inout JSONReader) throws -> [ChainTransaction] {
        var list: [ChainTransaction] = []
        try reader.readArray { reader, _ in list.append(try transaction(&reader)) }
        return try reader.withoutRepeats(list, what: "txid", id: \.txid)
    }

    static func transaction(_ reader: inout JSONReader) throws -> ChainTransaction {
        var txid: String?
        var inputs, outputs: [ChainTransaction.Leg]?
        var fee: Int64?
        var status: (confirmed: Bool, height: Int64?, time: Int64?)?
        try reader.readObject { reader, key in
            if key.is("txid") { txid = try reader.readTxid() }
            else if key.is("vin") {
                var legs: [ChainTransaction.Leg] = []
                try reader.readArray { reader, _ in
                    var prevout: ChainTransaction.Leg?
                    var coinbase = false
                    try reader.readObject { reader, key in
                        if key.is("prevout") { prevout = reader.readNull() ? nil : try output(&reader) }
                        else if key.is("is_coinbase") { coinbase = try reader.readBool() }
                        else { try reader.skipValue() }
                    }
                    if let prevout { legs.append(prevout) }
                    else if !coinbase { throw reader.missing("prevout") }
                }
                inputs = legs
            } else if key.is("vout") {
                var legs: [ChainTransaction.Leg] = []
                try reader.readArray { reader, _ in legs.append(try output(&reader)) }
                outputs = legs
            } else if key.is("fee") { fee = try reader.readOptionalSats() }
            else if key.is("status") { status = try self.status(&reader) }
            else { try reader.skipValue() }
        }
        guard let txid else { throw reader.missing("txid") }
        guard let inputs else { throw reader.missing("vin") }
        guard let outputs else { throw reader.missing("vout") }
        guard let status else { throw reader.missing("status") }
        // Each value is at most 21 million BTC; so must their sums be (what a transaction spends
        // and pays), which also keeps the amounts computed from them from overflowing.
        for (legs, field) in [(inputs, "vin"), (outputs, "vout")] where BitcoinSupply.sum(legs.lazy.map(\.value)) == nil {
            throw reader.error("the values of \(field) add up to more than the 21 million BTC that can exist")
        }
        return ChainTransaction(txid: txid, inputs: inputs, outputs: outputs, fee: fee, confirmed: status.confirmed,
                                  blockHeight: status.height, blockTime: status.time)
    }

    /// An output or a prevout. An empty `scriptpubkey_address` is no address: esplora-electrs
    /// leaves the key out for scripts without one, but some explorers send `""` (an OP_RETURN
    /// output recorded by mempool.space does), which must not become a counterparty.
    private static func output(_ reader: inout JSONReader) throws -> ChainTransaction.Leg {
        var address: String?
        var value: Int64?
        try reader.readObject { reader, key in
            if key.is("scriptpubkey_address") { address = try reader.readOptionalString().flatMap { $0.isEmpty ? nil : $0 } }
            else if key.is("value") { value = try reader.readSats() }
            else { try reader.skipValue() }
        }
        guard let value else { throw reader.missing("value") }
        return ChainTransaction.Leg(address: address, value: value)
    }

    private static func status(_ reader: inout JSONReader) throws -> (confirmed: Bool, height: Int64?, time: Int64?) {
        var confirmed: Bool?
        var height, time: Int64?
        try reader.readObject { reader, key in
            if key.is("confirmed") { confirmed = try reader.readBool() }
            else if key.is("block_height") { height = try reader.readOptionalInt64(nonNegative: true) }
            else if key.is("block_time") { time = try reader.readOptionalInt64(nonNegative: true) }
            else { try reader.skipValue() }
        }
        guard let confirmed else { throw reader.missing("confirmed") }
        if confirmed {
            guard height != nil else { throw reader.missing("block_height") }
            guard time != nil else { throw reader.missing("block_time") }
        }
        return (confirmed, height, time)
    }
}

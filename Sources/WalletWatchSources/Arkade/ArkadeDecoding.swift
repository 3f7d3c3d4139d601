import WalletWatchCore

/// Strict decoders for the JSON of Fulmine's and arkd's REST gateways (gRPC gateways writing
/// protojson, pinned in Tests/WalletWatchSimTests/Fixtures/specs/: Fulmine v0.3.24, arkd v0.9.15).
///
/// Wire rules (shared/specs/arkade-facts.md): lowerCamelCase names, 64-bit integers as decimal
/// strings, 32-bit ones as numbers, enums by name, every field present. A 64-bit field is read
/// from a string of digits, or from a JSON integer (protojson readers accept both); anything else
/// (`"12.5"`, `"1e3"`, `""`, a sign where none belongs) is refused naming the field. Enum values
/// walletwatch does not know are refused: an amount with an unknown meaning is not guessed.
/// Fields walletwatch needs are required; unknown fields are ignored (these APIs add some).
enum ArkadeDecoding {
    // MARK: Fulmine

    /// `GetBalanceResponse`: `{"amount": uint64}`.
    static func fulmineBalance(_ reader: inout JSONReader) throws -> Int64 {
        var amount: Int64?
        try reader.readObject { reader, key in
            if key.is("amount") { amount = try reader.readUInt64Sats() } else { try reader.skipValue() }
        }
        guard let amount else { throw reader.missing("amount") }
        return amount
    }

    /// `GetTransactionHistoryResponse`.
    static func fulmineTransactions(_ reader: inout JSONReader) throws -> [FulmineTransaction] {
        var list: [FulmineTransaction]?
        try reader.readObject { reader, key in
            if key.is("transactions") {
                var found: [FulmineTransaction] = []
                try reader.readArray { reader, _ in found.append(try fulmineTransaction(&reader)) }
                list = found
            } else { try reader.skipValue() }
        }
        guard let list else { throw reader.missing("transactions") }
        return try reader.withoutRepeats(list, what: "transaction", id: \.id)
    }

    /// `TransactionInfo`: exactly one of its three txids is set.
    static func fulmineTransaction(_ reader: inout JSONReader) throws -> FulmineTransaction {
        var date: Instant??
        var amount: Int64?
        var type: FulmineTransaction.Kind?
        var commitment = "", ark = "", boarding = "", settledBy = ""
        try reader.readObject { reader, key in
            if key.is("date") {
                let text = try reader.readString()
                // Go's zero time: a boarding transaction still in the mempool has no date yet.
                if text.hasPrefix("0001-01-01") { date = .some(nil); return }
                guard let instant = Instant(iso8601: text) else { throw reader.error("\(JSONReader.shown(text)) is not an RFC 3339 time") }
                date = .some(instant)
            } else if key.is("amount") {
                amount = try reader.readUInt64Sats()
            } else if key.is("type") {
                let text = try reader.readString()
                guard let kind = FulmineTransaction.Kind(rawValue: text) else {
                    throw reader.error("\(JSONReader.shown(text)) is not a transaction type (TX_TYPE_SENT, TX_TYPE_RECEIVED)")
                }
                type = kind
            } else if key.is("commitmentTxid") { commitment = try reader.readOptionalTxid()
            } else if key.is("arkTxid") { ark = try reader.readOptionalTxid()
            } else if key.is("boardingTxid") { boarding = try reader.readOptionalTxid()
            } else if key.is("settledBy") { settledBy = try reader.readOptionalTxid()
            } else { try reader.skipValue() }
        }
        guard let date else { throw reader.missing("date") }
        guard let amount else { throw reader.missing("amount") }
        guard let type else { throw reader.missing("type") }
        let set = [commitment, ark, boarding].filter { !$0.isEmpty }
        guard set.count == 1 else {
            throw reader.error("sets \(set.count) of commitmentTxid, arkTxid and boardingTxid; exactly one is expected")
        }
        return FulmineTransaction(date: date, amount: amount, kind: type, commitmentTxid: commitment, arkTxid: ark,
                                  boardingTxid: boarding, settledBy: settledBy)
    }

    /// `GetVtxosResponse`.
    static func vtxoList(_ reader: inout JSONReader) throws -> [ArkadeVtxo] {
        var list: [ArkadeVtxo]?
        try reader.readObject { reader, key in
            if key.is("vtxos") { list = try vtxos(&reader) } else { try reader.skipValue() }
        }
        guard let list else { throw reader.missing("vtxos") }
        return try reader.withoutRepeats(list, what: "VTXO", id: \.outpoint)
    }

    /// `GetInfoResponse` of Fulmine. `network` is an enum whose mainnet Fulmine v0.3.24 answers
    /// `NETWORK_UNSPECIFIED` (it maps only "regtest", "testnet" and "mainnet", while its library
    /// names mainnet "bitcoin"), so the network is read from `addrPrefix`; the enum must still
    /// be one of its documented values.
    static func fulmineInfo(_ reader: inout JSONReader) throws -> ArkadeInfo {
        var network: String?, prefix: String?, signer = ""
        try reader.readObject { reader, key in
            if key.is("network") {
                let text = try reader.readString()
                guard FulmineNetwork(rawValue: text) != nil else {
                    throw reader.error("\(JSONReader.shown(text)) is not a network (\(FulmineNetwork.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                network = text
            } else if key.is("addrPrefix") {
                let text = try reader.readString()
                guard text == "ark" || text == "tark" else { throw reader.error("\(JSONReader.shown(text)) is not an Ark address prefix (ark, tark)") }
                prefix = text
            } else if key.is("signerPubkey") {
                signer = try reader.readString()
            } else { try reader.skipValue() }
        }
        guard network != nil else { throw reader.missing("network") }
        guard let prefix else { throw reader.missing("addrPrefix") }
        return ArkadeInfo(network: prefix == "ark" ? "bitcoin" : "testnet", addressPrefix: prefix, signerPubkey: signer)
    }

    // MARK: arkd

    /// One page of `GET /v1/indexer/vtxos`.
    static func indexerPage(_ reader: inout JSONReader) throws -> IndexerPage {
        var list: [ArkadeVtxo]?
        var page: IndexerPage.Position??
        try reader.readObject { reader, key in
            if key.is("vtxos") { list = try vtxos(&reader) }
            else if key.is("page") {
                if reader.readNull() { page = .some(nil); return }
                var current, next, total: Int64?
                try reader.readObject { reader, key in
                    if key.is("current") { current = try reader.readInt32() }
                    else if key.is("next") { next = try reader.readInt32() }
                    else if key.is("total") { total = try reader.readInt32() }
                    else { try reader.skipValue() }
                }
                guard let current else { throw reader.missing("current") }
                guard let next else { throw reader.missing("next") }
                guard let total else { throw reader.missing("total") }
                page = .some(IndexerPage.Position(current: Int(current), next: Int(next), total: Int(total)))
            } else { try reader.skipValue() }
        }
        guard let list else { throw reader.missing("vtxos") }
        return IndexerPage(vtxos: list, position: page ?? nil)
    }

    /// arkd's `GetInfoResponse`: `network` is arklib's name ("bitcoin", "testnet", "signet"...).
    static func arkdInfo(_ reader: inout JSONReader) throws -> ArkadeInfo {
        var network: String?, signer: String?
        try reader.readObject { reader, key in
            if key.is("network") { network = try reader.readString() }
            else if key.is("signerPubkey") { signer = try reader.readString() }
            else { try reader.skipValue() }
        }
        guard let network else { throw reader.missing("network") }
        guard let signer else { throw reader.missing("signerPubkey") }
        guard let prefix = ArkadeInfo.addressPrefix(ofArkNetwork: network) else {
            throw reader.error("network \(JSONReader.shown(network)) is not one arkd names (\(ArkadeInfo.arkNetworks.joined(separator: ", ")))")
        }
        return ArkadeInfo(network: network, addressPrefix: prefix, signerPubkey: signer)
    }

    /// `SubscribeForScriptsResponse`.
    static func subscriptionID(_ reader: inout JSONReader) throws -> String {
        var id: String?
        try reader.readObject { reader, key in
            if key.is("subscriptionId") { id = try reader.readString() } else { try reader.skipValue() }
        }
        guard let id, !id.isEmpty else { throw reader.missing("subscriptionId") }
        return id
    }

    // MARK: VTXOs

    static func vtxos(_ reader: inout JSONReader) throws -> [ArkadeVtxo] {
        var list: [ArkadeVtxo] = []
        try reader.readArray { reader, _ in list.append(try vtxo(&reader)) }
        return list
    }

    /// `Vtxo` (Fulmine) or `IndexerVtxo` (arkd). The flags and the amount are required; the
    /// txids of a VTXO not yet spent or settled are empty strings, or absent.
    static func vtxo(_ reader: inout JSONReader) throws -> ArkadeVtxo {
        var outpoint: String?, script: String?
        var amount, createdAt: Int64?
        var expiresAt: Int64 = 0
        var preconfirmed, swept, unrolled, spent: Bool?
        var spentBy = "", settledBy = "", arkTxid = ""
        var commitments: [String] = []
        try reader.readObject { reader, key in
            if key.is("outpoint") {
                var txid: String?, vout: Int64?
                try reader.readObject { reader, key in
                    if key.is("txid") { txid = try reader.readTxid() }
                    else if key.is("vout") { vout = try reader.readNonNegativeInt64() }
                    else { try reader.skipValue() }
                }
                guard let txid else { throw reader.missing("txid") }
                guard let vout, vout <= Int64(UInt32.max) else { throw reader.missing("vout") }
                outpoint = "\(txid):\(vout)"
            } else if key.is("amount") { amount = try reader.readUInt64Sats()
            } else if key.is("script") {
                let text = try reader.readString()
                guard text.utf8.count == 68, text.hasPrefix("5120"), text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                    throw reader.error("\(JSONReader.shown(text)) is not a taproot VTXO script (5120 and 32 bytes in lower-case hex)")
                }
                script = text
            } else if key.is("createdAt") { createdAt = try reader.readInt64Text(nonNegative: true)
            } else if key.is("expiresAt") { expiresAt = try reader.readInt64Text(nonNegative: true)
            } else if key.is("isPreconfirmed") { preconfirmed = try reader.readBool()
            } else if key.is("isSwept") { swept = try reader.readBool()
            } else if key.is("isUnrolled") { unrolled = try reader.readBool()
            } else if key.is("isSpent") { spent = try reader.readBool()
            } else if key.is("spentBy") { spentBy = try reader.readOptionalTxid()
            } else if key.is("settledBy") { settledBy = try reader.readOptionalTxid()
            } else if key.is("arkTxid") { arkTxid = try reader.readOptionalTxid()
            } else if key.is("commitmentTxids") {
                try reader.readArray { reader, _ in commitments.append(try reader.readTxid()) }
            } else { try reader.skipValue() }
        }
        guard let outpoint else { throw reader.missing("outpoint") }
        guard let amount else { throw reader.missing("amount") }
        guard let script else { throw reader.missing("script") }
        guard let createdAt else { throw reader.missing("createdAt") }
        guard let preconfirmed else { throw reader.missing("isPreconfirmed") }
        guard let swept else { throw reader.missing("isSwept") }
        guard let unrolled else { throw reader.missing("isUnrolled") }
        guard let spent else { throw reader.missing("isSpent") }
        return ArkadeVtxo(outpoint: outpoint, amount: amount, script: script, createdAt: createdAt, expiresAt: expiresAt,
                          isPreconfirmed: preconfirmed, isSwept: swept, isUnrolled: unrolled, isSpent: spent, spentBy: spentBy,
                          settledBy: settledBy, arkTxid: arkTxid, commitmentTxids: commitments)
    }
}

extension JSONReader {
    /// A protojson 64-bit integer: a string of decimal digits (what the gateways send), or a
    /// JSON integer. `"12.5"`, `"1e3"`, `" 7"`, `""` and the like are refused.
    mutating func readInt64Text(nonNegative: Bool) throws -> Int64 {
        guard peekKind() == .string else { return nonNegative ? try readNonNegativeInt64() : try readInt64() }
        let text = try readString()
        let digits = text.hasPrefix("-") && !nonNegative ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(text) else {
            throw error("\(JSONReader.shown(text)) is not \(nonNegative ? "an unsigned" : "a") 64-bit integer written as a decimal string")
        }
        return value
    }

    /// A uint64 amount in satoshis (``readInt64Text(nonNegative:)``), at most 21 million BTC.
    mutating func readUInt64Sats() throws -> Int64 {
        let value = try readInt64Text(nonNegative: true)
        guard value <= BitcoinSupply.maximumSats else { throw error("\(value) sat is more than the 21 million BTC that can exist") }
        return value
    }

    /// A protojson int32/uint32: a JSON number.
    mutating func readInt32() throws -> Int64 {
        let value = try readInt64()
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { throw error("\(value) does not fit 32 bits") }
        return value
    }

    /// A txid, or the empty string protojson writes for an unset one.
    mutating func readOptionalTxid() throws -> String {
        if peekKind() == .string {
            var copy = self
            if try copy.readString().isEmpty { self = copy; return "" }
        }
        if readNull() { return "" }
        return try readTxid()
    }
}

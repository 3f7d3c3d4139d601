import GRDB
import WalletWatchCore

/// A stored VTXO of a barkd source.
struct VTXORow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "vtxos"
    var source: String
    var vtxo: VTXO
    var lastUpdated: Instant

    init(source: String, vtxo: VTXO, lastUpdated: Instant) {
        self.source = source
        self.vtxo = vtxo
        self.lastUpdated = lastUpdated
    }

    init(row: Row) throws {
        source = try row.decode(forColumn: "source")
        vtxo = VTXO(id: try row.decode(forColumn: "id"), amount: try row.decode(forColumn: "amount"),
                    expiryHeight: try row.decode(forColumn: "expiry_height"), state: try row.decode(forColumn: "state"))
        lastUpdated = try row.decode(forColumn: "last_updated")
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["id"] = vtxo.id
        container["amount"] = vtxo.amount
        container["expiry_height"] = vtxo.expiryHeight
        container["state"] = vtxo.state
        container["last_updated"] = lastUpdated
    }
}

/// A stored UTXO of a source's on-chain wallet.
struct UTXORow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "utxos"
    var source: String
    var utxo: UTXO
    var lastUpdated: Instant

    init(source: String, utxo: UTXO, lastUpdated: Instant) {
        self.source = source
        self.utxo = utxo
        self.lastUpdated = lastUpdated
    }

    init(row: Row) throws {
        source = try row.decode(forColumn: "source")
        utxo = UTXO(outpoint: try row.decode(forColumn: "outpoint"), amount: try row.decode(forColumn: "amount"),
                    confirmationHeight: try row.decode(forColumn: "confirmation_height"))
        lastUpdated = try row.decode(forColumn: "last_updated")
    }

    func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["outpoint"] = utxo.outpoint
        container["amount"] = utxo.amount
        container["confirmation_height"] = utxo.confirmationHeight
        container["last_updated"] = lastUpdated
    }
}

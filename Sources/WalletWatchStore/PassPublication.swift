import GRDB
import WalletWatchCore

/// What a source reports besides its transactions (balances, VTXOs, UTXOs, the Ark server, the
/// chain tip), written by the transaction that publishes its pass
/// (``LedgerPass/publish(startedAt:_:)``), so that it appears together with the transactions.
public struct PassPublication {
    let db: Database
    let source: String
    let now: Instant
    /// The ids of the source's assets in this pass.
    let assetIDs: [PassAsset: Int64]

    /// Stores the balance of one of the source's assets, for a source that reports one per
    /// asset (an EVM source's coin and tokens): `counted` at the source's confirmation depth,
    /// `pending` the rest (negative for an unconfirmed spend).
    public func saveBalance(of asset: PassAsset, counted: Int128, pending: Int128) throws {
        guard let id = assetIDs[asset] else { preconditionFailure("saveBalance(of:) for an asset the pass never named") }
        try db.execute(sql: """
            INSERT INTO asset_balances (asset_id, counted, pending, last_updated) VALUES (?, ?, ?, ?)
            ON CONFLICT(asset_id) DO UPDATE SET counted = excluded.counted, pending = excluded.pending, last_updated = excluded.last_updated
            """, arguments: [id, StoredAmount(counted), StoredAmount(pending), now])
    }

    /// Stores the source's Ark balance as of now.
    public func save(_ balance: ArkBalance) throws {
        try SourceArkBalance(source: source, balance: balance, lastUpdated: now).upsert(db)
    }

    /// Stores the source's on-chain balance as of now.
    public func save(_ balance: OnchainBalance) throws {
        try SourceOnchainBalance(source: source, balance: balance, lastUpdated: now).upsert(db)
    }

    /// Records that these addresses' histories are stored whole as of this pass.
    public func markSynced(addresses: [String]) throws {
        for address in addresses {
            try db.execute(sql: """
                INSERT INTO esplora_synced_addresses (source, address, synced_at) VALUES (?, ?, ?)
                ON CONFLICT(source, address) DO UPDATE SET synced_at = excluded.synced_at
                """, arguments: [source, address, now])
        }
    }

    /// Stores the chain tip the source reported.
    public func saveTip(_ height: Int64) throws {
        try db.execute(sql: """
            INSERT INTO chain_tips (source, height, fetched_at) VALUES (?, ?, ?)
            ON CONFLICT(source) DO UPDATE SET height = excluded.height, fetched_at = excluded.fetched_at
            """, arguments: [source, height, now])
    }

    /// Remembers what the source sent for `part` (digests of the body and of its head, and how
    /// many items it held), so that the next pass can recognise the same answer without
    /// decoding it.
    public func save(_ digest: BodyDigest, part: String, items: Int) throws {
        try db.execute(sql: """
            INSERT INTO source_digests (source, part, digest, head_digest, items) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(source, part) DO UPDATE SET digest = excluded.digest, head_digest = excluded.head_digest, items = excluded.items
            """, arguments: [source, part, digest.whole, digest.head, items])
    }

    /// Stores what the wallet says about its Ark server. The VTXO lifetime goes into the
    /// `vtxo_expiry_delta` column (SPEC.md section 3's "vtxo expiry delta"; null when unknown).
    public func save(_ info: ArkServerInfo) throws {
        try db.execute(sql: """
            INSERT INTO ark_info (source, network, server_pubkey, round_interval, vtxo_expiry_delta, fetched_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(source) DO UPDATE SET network = excluded.network, server_pubkey = excluded.server_pubkey,
                round_interval = excluded.round_interval, vtxo_expiry_delta = excluded.vtxo_expiry_delta,
                fetched_at = excluded.fetched_at
            """, arguments: [source, info.network, info.serverPubkey, info.roundInterval, info.vtxoLifetime, now])
    }

    /// Makes the stored VTXOs of the source exactly `vtxos`, writing only the differences.
    public func replace(_ vtxos: [VTXO]) throws {
        let stored = try Dictionary(uniqueKeysWithValues: VTXORow.filter(Column("source") == source).fetchAll(db).map { ($0.vtxo.id, $0.vtxo) })
        let reported = Set(vtxos.map(\.id))
        for id in stored.keys where !reported.contains(id) {
            try VTXORow.deleteOne(db, key: ["source": source, "id": id])
        }
        for vtxo in vtxos where stored[vtxo.id] != vtxo {
            try VTXORow(source: source, vtxo: vtxo, lastUpdated: now).upsert(db)
        }
    }

    /// Makes the stored UTXOs of the source exactly `utxos`, writing only the differences.
    public func replace(_ utxos: [UTXO]) throws {
        let stored = try Dictionary(uniqueKeysWithValues: UTXORow.filter(Column("source") == source).fetchAll(db).map { ($0.utxo.outpoint, $0.utxo) })
        let reported = Set(utxos.map(\.outpoint))
        for outpoint in stored.keys where !reported.contains(outpoint) {
            try UTXORow.deleteOne(db, key: ["source": source, "outpoint": outpoint])
        }
        for utxo in utxos where stored[utxo.outpoint] != utxo {
            try UTXORow(source: source, utxo: utxo, lastUpdated: now).upsert(db)
        }
    }
}

import GRDB
import WalletWatchCore

/// Assets are read through the `assets` view, which leaves out the assets of ingest passes
/// that are not published yet (Schema.version4); they are written through ``AssetRow``.
extension Asset: FetchableRecord, TableRecord {
    public static let databaseTableName = "assets"

    public init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            name: try row.decode(forColumn: "name"),
            currency: try row.decode(forColumn: "currency"),
            kind: try row.decode(forColumn: "kind"),
            source: try row.decode(forColumn: "source"),
            createdAt: try row.decode(forColumn: "created_at"))
    }
}

/// An asset as written: the `asset_rows` table behind the `assets` view. `pass` is the ingest
/// pass that created it while that pass is unpublished, else nil.
struct AssetRow: MutablePersistableRecord {
    static let databaseTableName = "asset_rows"

    var asset: Asset
    var pass: Int64?

    init(_ asset: Asset, pass: Int64? = nil) {
        self.asset = asset
        self.pass = pass
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = asset.id
        container["name"] = asset.name
        container["currency"] = asset.currency
        container["kind"] = asset.kind
        container["source"] = asset.source
        container["created_at"] = asset.createdAt
        container["pass"] = pass
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        asset.id = inserted.rowID
    }
}

extension Asset {
    /// Inserts the asset (into the table behind the view) and sets its id.
    mutating func insert(_ db: Database, pass: Int64? = nil) throws {
        var row = AssetRow(self, pass: pass)
        try row.insert(db)
        self = row.asset
    }

    /// Writes the asset's name and currency.
    func update(_ db: Database) throws {
        try AssetRow(self).update(db, columns: ["name", "currency", "kind"])
    }
}

import GRDB
import WalletWatchCore

extension AppDatabase {
    static func findTag(_ db: Database, named name: String) throws -> Tag {
        let key = Name.key(name)
        guard let tag = try Tag.fetchAll(db).first(where: { Name.key($0.name) == key }) else {
            throw Refusal("no tag named '\(name.trimmingSpaces)'; `walletwatch tag list` shows the tags")
        }
        return tag
    }
}

import Foundation
import GRDB
import WalletWatchCore

// How Core values are written in SQLite: timestamps as ISO 8601 UTC text with milliseconds,
// days as yyyy-MM-dd, currencies as their codes, enums as their raw strings.

extension Instant: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { iso8601.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Instant? {
        String.fromDatabaseValue(dbValue).flatMap { Instant(iso8601: $0) }
    }
}

extension Day: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Day? {
        String.fromDatabaseValue(dbValue).flatMap { Day($0) }
    }
}

extension MonthLabel: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> MonthLabel? {
        String.fromDatabaseValue(dbValue).flatMap { MonthLabel($0) }
    }
}

extension Currency: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { code.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Currency? {
        String.fromDatabaseValue(dbValue).flatMap { try? Currency(code: $0) }
    }
}

extension AssetKind: DatabaseValueConvertible {}
extension TransactionType: DatabaseValueConvertible {}
extension TransactionStatus: DatabaseValueConvertible {}
extension TransactionDirection: DatabaseValueConvertible {}
extension GoalStatus: DatabaseValueConvertible {}

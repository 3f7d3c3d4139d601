import GRDB

/// An amount as SQLite holds it (docs/ARCHITECTURE.md, "Exact amounts").
///
/// SQLite's INTEGER is 64 bits, about 9.22 ETH in wei; amounts are 128 bits. An amount that
/// fits in 64 bits (every bitcoin and fiat amount there is, and ETH up to 9.22) is stored as an
/// INTEGER, exactly as before, so no existing figure changes and sums stay fast; a larger one is
/// stored as the TEXT of its exact decimal digits (`-12345678901234567890123`). Each value has
/// one form only (the schema's CHECK refuses text for a value that fits in 64 bits), so SQL's
/// `=` and `IS` compare amounts correctly. The columns have no declared type: a column of
/// INTEGER affinity would turn such text into a lossy floating-point number.
///
/// Sums go through ``AmountSQL/sum`` (`amount_sum(x)`), which adds both forms exactly and fails
/// on overflow; `SUM()` would overflow at 64 bits, and `TOTAL()` is floating point.
struct StoredAmount: DatabaseValueConvertible, Hashable {
    let value: Int128

    init(_ value: Int128) {
        self.value = value
    }

    var databaseValue: DatabaseValue {
        if let small = Int64(exactly: value) { return small.databaseValue }
        return String(value).databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredAmount? {
        switch dbValue.storage {
        case .int64(let number): StoredAmount(Int128(number))
        case .string(let text): Int128(text).map(StoredAmount.init)
        default: nil
        }
    }
}

extension Row {
    /// The amount in `column`; an error naming the column when it holds anything else.
    func amount(_ column: String) throws -> Int128 {
        try decode(StoredAmount.self, forColumn: column).value
    }

    /// The amount in `column`, or nil when it is NULL.
    func optionalAmount(_ column: String) throws -> Int128? {
        try decode(StoredAmount?.self, forColumn: column)?.value
    }
}

/// The SQL that works with stored amounts.
enum AmountSQL {
    /// `amount_sum(x)`: the exact sum of stored amounts (both forms), NULL over no rows, an error
    /// on overflow past 128 bits. Registered on every connection (``AppDatabase/makeConfiguration(busyTimeoutSeconds:)``).
    static let sum = DatabaseFunction("amount_sum", argumentCount: 1, pure: true, aggregate: AmountSum.self)

    /// `amount_total(x)`: as `amount_sum`, but 0 over no rows (as SQLite's `TOTAL`).
    static let total = DatabaseFunction("amount_total", argumentCount: 1, pure: true, aggregate: AmountTotal.self)

    /// An SQL condition true when the stored amount `column` is above zero (text amounts are
    /// beyond 64 bits, so only their sign matters; SQLite orders any text above any integer).
    static func isPositive(_ column: String) -> String {
        "(CASE typeof(\(column)) WHEN 'integer' THEN \(column) > 0 ELSE \(column) NOT GLOB '-*' END)"
    }

    struct AmountSum: DatabaseAggregate {
        var sum: Int128?

        mutating func step(_ dbValues: [DatabaseValue]) throws {
            guard !dbValues[0].isNull else { return }
            guard let amount = StoredAmount.fromDatabaseValue(dbValues[0]) else {
                throw DatabaseError(message: "amount_sum: not an amount: \(dbValues[0])")
            }
            let (result, overflow) = (sum ?? 0).addingReportingOverflow(amount.value)
            guard !overflow else { throw DatabaseError(message: "amount_sum: the sum exceeds 128 bits") }
            sum = result
        }

        func finalize() throws -> (any DatabaseValueConvertible)? { sum.map(StoredAmount.init) }
    }

    struct AmountTotal: DatabaseAggregate {
        var inner = AmountSum()
        mutating func step(_ dbValues: [DatabaseValue]) throws { try inner.step(dbValues) }
        func finalize() throws -> (any DatabaseValueConvertible)? { StoredAmount(inner.sum ?? 0) }
    }
}

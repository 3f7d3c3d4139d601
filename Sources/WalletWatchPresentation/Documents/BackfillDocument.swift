import WalletWatchCore
import WalletWatchEngine

/// The JSON of `rates backfill` (CLI.md "Additions"): `{"provider", "requests", "pairs":
/// [{"base", "quote", "provider", "days_added", "first", "last", "days_missing"}], "skipped_points",
/// "unavailable": [{"base", "quote", "days", "first", "last"}]}`.
public enum BackfillDocument {
    public static func json(_ result: BackfillResult) -> JSONValue {
        .object([
            .init("provider", .string(result.provider)),
            .init("requests", .int(Int64(result.requests))),
            .init("pairs", .array(result.pairs.map { line in
                .object([
                    .init("base", .string(line.pair.base.code)),
                    .init("quote", .string(line.pair.quote.code)),
                    .init("provider", .string(line.provider)),
                    .init("days_added", .int(Int64(line.daysAdded))),
                    .init("first", .string(line.first?.description)),
                    .init("last", .string(line.last?.description)),
                    .init("days_missing", .int(Int64(line.daysMissing))),
                ])
            })),
            .init("skipped_points", .int(Int64(result.skipped.count))),
            .init("unavailable", .array(result.unavailable.map { gap in
                .object([
                    .init("base", .string(gap.pair.base.code)),
                    .init("quote", .string(gap.pair.quote.code)),
                    .init("days", .int(Int64(gap.days))),
                    .init("first", .string(gap.first.description)),
                    .init("last", .string(gap.last.description)),
                ])
            })),
        ])
    }
}

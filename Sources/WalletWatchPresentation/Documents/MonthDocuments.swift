import WalletWatchCore
import WalletWatchEngine

/// The JSON shapes of the month commands (CLI.md: `month status`, `month plan`,
/// `month close-goal`, `month history`). `/api/v1/status` prints the same status document.
public enum MonthDocument {
    public static func status(_ status: MonthStatus) -> JSONValue {
        .object([
            "month": .string(status.month.description),
            "state": .string(status.state.rawValue),
            "started_at": .string(status.startedAt?.iso8601),
            "display_currency": .string(status.displayCurrency.code),
            "goals": .array(status.goals.map { goal in
                let figures = goal.figures
                return .object([
                    "goal": .string(goal.name),
                    "currency": .string(goal.currency.code),
                    "planned": .int(figures.planned),
                    "contributed": .int(figures.contributed),
                    "remaining": .int(figures.remaining),
                    "remaining_display": .int(goal.remainingDisplay),
                    "progress": figures.planned == 0 ? .number("1") : Fraction.json(figures.contributed, figures.planned),
                    "closed": .bool(figures.closed),
                ])
            }),
            "total": .object([
                "planned_display": .int(status.plannedDisplay),
                "contributed_display": .int(status.contributedDisplay),
                "remaining_display": .int(status.remainingDisplay),
            ]),
            "rates": .object([
                "as_of": .string(status.ratesAsOf?.iso8601),
                "stale": .bool(status.ratesStale),
                "missing": .array(status.missingRates.map { .string($0.description) }),
            ]),
        ])
    }

    public static func plan(_ lines: [PlanLine]) -> JSONValue {
        .array(lines.map { line in
            .object([
                "goal": .string(line.goal.name),
                "currency": .string(line.goal.currency.code),
                "required": .int(line.plan.required),
                "custom": .int(line.plan.custom),
                "skipped": .bool(line.plan.skipped),
                "planned": .int(line.planned),
            ])
        })
    }

    public static func closeGoal(_ suggestion: CloseGoalSuggestion) -> JSONValue {
        .object([
            "goal": .string(suggestion.goal),
            "currency": .string(suggestion.currency.code),
            "remaining": .int(suggestion.remaining),
            "remaining_display": .int(suggestion.remainingDisplay),
            "display_currency": .string(suggestion.displayCurrency.code),
            "rate_time": .string(suggestion.rateTime?.iso8601),
            "action": .string(suggestion.action.rawValue),
            "asset": .string(suggestion.asset),
            "asset_currency": .string(suggestion.amountCurrency?.code),
            "amount": .int(suggestion.amount),
            "allocations": suggestion.allocations.map { list in .object(list.map { JSONValue.Member($0.goal, .int($0.amount)) }) } ?? .null,
            "clamped": .bool(suggestion.clamped),
            "warning": .string(suggestion.warning),
            "applied": .bool(suggestion.applied),
        ])
    }

    public static func history(_ months: [(ExecutionRecord, CompletedExecutionData)]) -> JSONValue {
        .array(months.map { record, data in
            .object([
                "month": .string(record.month.description),
                "started_at": .string(data.startedAt.iso8601),
                "completed_at": .string(data.completedAt.iso8601),
                "display_currency": .string(data.displayCurrency.code),
                "goals": .array(data.goals.map { goal in
                    .object([
                        "goal": .string(goal.name), "currency": .string(goal.currency.code), "planned": .int(goal.planned),
                        "contributed": .int(goal.contributed), "remaining": .int(goal.remaining),
                    ])
                }),
                "rates": .array(data.rates.map { rate in
                    .object([
                        "base": .string(rate.base.code), "quote": .string(rate.quote.code), "rate": .number(rate.rate),
                        "fetched_at": .string(rate.fetchedAt.iso8601), "provider": .string(rate.provider),
                    ])
                }),
            ])
        })
    }
}

/// The JSON shape of `walletwatch rates`.
public enum RatesDocument {
    public static func json(_ table: RateTable) -> JSONValue {
        .array(table.rates.values.sorted { $0.pair < $1.pair }.map { json($0, in: table) })
    }

    /// One rate: `{"base", "quote", "rate", "fetched_at", "provider", "stale"}`.
    public static func json(_ rate: ExchangeRate, in table: RateTable) -> JSONValue {
        .object([
            "base": .string(rate.pair.base.code),
            "quote": .string(rate.pair.quote.code),
            "rate": .number("\(rate.rate)"),
            "fetched_at": .string(rate.fetchedAt.iso8601),
            "provider": .string(rate.provider),
            "stale": .bool(table.isStale(rate)),
        ])
    }
}

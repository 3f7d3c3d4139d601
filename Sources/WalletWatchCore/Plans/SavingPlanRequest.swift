/// A saving plan as the user asked for it (`saving-plan add`), every field as written.
public struct SavingPlanRequest: Hashable, Sendable {
    /// The plan's name.
    public var name: String
    /// The goal's name.
    public var goal: String
    /// The asset's name.
    public var asset: String
    /// The amount as written (`250`, `0.001`, `15000sat`), in the plan's currency.
    public var amount: String
    /// nil: the asset's currency.
    public var currency: String?
    /// nil: `month`.
    public var every: String?
    /// nil: today (UTC).
    public var start: String?
    /// nil: `reminder`.
    public var method: String?

    public init(name: String, goal: String, asset: String, amount: String, currency: String? = nil, every: String? = nil,
                start: String? = nil, method: String? = nil) {
        self.name = name
        self.goal = goal
        self.asset = asset
        self.amount = amount
        self.currency = currency
        self.every = every
        self.start = start
        self.method = method
    }

    /// The plan this request makes for `goal` and `asset`, or a refusal (exit 65) naming the
    /// first thing wrong and what is accepted (SPEC.md section 19's validation).
    ///
    /// Defaults: the asset's currency, monthly, starting today, `reminder`. The method is never
    /// guessed from the asset: `automatic` writes transactions into the ledger on its own, so
    /// it is recorded only when asked for.
    public func plan(goal: Goal, asset: Asset, today: Day, now: Instant) throws(Refusal) -> SavingPlan {
        let name: String
        do { name = try Name.validated(self.name, what: "saving plan") } catch { throw Refusal(error.message) }
        guard goal.status == .active else {
            throw Refusal("goal '\(goal.name)' is \(goal.status.rawValue); a saving plan needs an active goal")
        }
        let currency: Currency
        if let code = self.currency {
            do { currency = try Currency(code: code) } catch { throw Refusal("--currency: \(error.description)") }
        } else {
            currency = asset.currency
        }
        let amount: Int128
        do { amount = try AmountInput.parseMoney(self.amount, currency: currency).minorUnits } catch {
            throw Refusal("--amount \(error.message)")
        }
        guard amount > 0 else {
            throw Refusal("--amount '\(self.amount)' is not positive; a saving plan puts a positive amount aside, like 100 or 0.001")
        }
        let every = try Self.choice(self.every ?? PlanFrequency.month.rawValue, option: "--every", as: PlanFrequency.self)
        let start: Day
        if let text = self.start {
            guard let day = Day(text) else { throw Refusal("--start '\(text)' is not a date; write it like \(today)") }
            start = day
        } else {
            start = today
        }
        let method = try Self.choice(self.method ?? PlanMethod.reminder.rawValue, option: "--method", as: PlanMethod.self)
        if method == .automatic {
            guard asset.kind == .manual else {
                throw Refusal("an automatic plan records its deposits itself, and only a manual asset takes them; '\(asset.name)' is fed by source '\(asset.source ?? "?")': use --method reminder (walletwatch then reminds you and notices the deposit)")
            }
        }
        return SavingPlan(name: name, goalID: goal.id!, assetID: asset.id!, amount: amount, currency: currency, every: every,
                          start: start, method: method, createdAt: now)
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ text: String, option: String, as: T.Type) throws(Refusal) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: text.trimmingSpaces.lowercased()) else {
            throw Refusal("\(option) '\(text)' is not accepted; use \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}

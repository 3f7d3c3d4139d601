import Testing
import TestSupport
@testable import WalletWatchCore

@Suite("Saving plans: due dates and reminders")
struct SavingPlanTests {
    func days(_ texts: [String]) -> [Day] { texts.map { Day($0)! } }

    @Test("a monthly plan started on the 31st falls due on the last day of shorter months and returns to the 31st")
    func monthEnd() {
        let start = Day("2026-01-31")!
        #expect((0..<7).map { SavingSchedule.due($0, start: start, every: .month) }
                == days(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30", "2026-07-31"]))
        // Across a leap February and a year's end.
        #expect(SavingSchedule.dues(start: Day("2027-12-31")!, every: .month, after: nil, through: Day("2028-04-01")!)
                == days(["2027-12-31", "2028-01-31", "2028-02-29", "2028-03-31"]))
        // The 30th: only February is short of it.
        #expect(SavingSchedule.dues(start: Day("2026-11-30")!, every: .month, after: nil, through: Day("2027-03-30")!)
                == days(["2026-11-30", "2026-12-30", "2027-01-30", "2027-02-28", "2027-03-30"]))
    }

    @Test("daily and weekly dates; the dates after the last one handled, through a day; the next one")
    func dailyWeeklyAndAfter() {
        #expect(SavingSchedule.dues(start: Day("2026-02-27")!, every: .day, after: nil, through: Day("2026-03-01")!)
                == days(["2026-02-27", "2026-02-28", "2026-03-01"]))
        #expect(SavingSchedule.dues(start: Day("2026-11-02")!, every: .week, after: nil, through: Day("2026-11-30")!)
                == days(["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30"]))
        let start = Day("2026-01-31")!
        #expect(SavingSchedule.dues(start: start, every: .month, after: Day("2026-02-28")!, through: Day("2026-04-30")!)
                == days(["2026-03-31", "2026-04-30"]))
        #expect(SavingSchedule.dues(start: start, every: .month, after: Day("2026-04-30")!, through: Day("2026-05-30")!).isEmpty)
        #expect(SavingSchedule.next(start: start, every: .month, after: nil) == start)
        #expect(SavingSchedule.next(start: start, every: .month, after: Day("2026-02-28")!) == Day("2026-03-31"))
        #expect(SavingSchedule.next(start: Day("2026-11-02")!, every: .week, after: Day("2026-11-10")!) == Day("2026-11-16"))
        #expect(SavingSchedule.dues(start: Day("2026-12-01")!, every: .day, after: nil, through: Day("2026-11-30")!).isEmpty,
                "a start in the future has no date due yet")
    }

    @Test("a reminder's window: from the due date's midnight UTC for 7 days, its end excluded")
    func window() {
        let window = ReminderWindow(due: Day("2026-11-02")!)
        #expect(window.start == .at("2026-11-02T00:00:00Z"))
        #expect(window.end == .at("2026-11-09T00:00:00Z"))
        #expect(window.contains(.at("2026-11-02T00:00:00Z")))
        #expect(window.contains(.at("2026-11-08T23:59:59.999Z")))
        #expect(!window.contains(.at("2026-11-09T00:00:00Z")))
        #expect(!window.contains(.at("2026-11-01T23:59:59.999Z")))
    }

    let usd = Currency.usd

    func reminder(_ plan: String, id: Int64 = 1, due: String, amount: Int128 = 10_000) -> ReminderMatcher.Reminder {
        .init(planID: id, planName: plan, assetID: 7, due: Day(due)!, amount: amount, currency: usd)
    }

    func deposit(_ txid: String, _ amount: Int128, _ date: String, confirmed: Bool = true, currency: Currency = .usd) -> ReminderMatcher.Deposit {
        .init(assetID: 7, txid: txid, amount: amount, currency: currency, date: .at(date), confirmed: confirmed)
    }

    func resolve(_ reminders: [ReminderMatcher.Reminder], _ deposits: [ReminderMatcher.Deposit], now: String,
                 value: (ReminderMatcher.Deposit, Currency) -> Int128? = { deposit, _ in deposit.amount }) -> [ReminderMatcher.Outcome] {
        ReminderMatcher.resolve(reminders, deposits: deposits, now: .at(now), value: value).map(\.1)
    }

    @Test("deposits add up within the window: pending while short and open, fulfilled once covered, missed once it closed short")
    func addingUp() {
        let due = [reminder("Rent", due: "2026-11-02")]
        let first = deposit("a", 6_000, "2026-11-03T10:00:00Z")
        let second = deposit("b", 5_000, "2026-11-05T10:00:00Z")
        #expect(resolve(due, [first], now: "2026-11-04T00:00:00Z") == [.pending(waitingFor: nil)])
        #expect(resolve(due, [first], now: "2026-11-08T23:59:59.999Z") == [.pending(waitingFor: nil)])
        #expect(resolve(due, [first], now: "2026-11-09T00:00:00Z") == [.missed])
        #expect(resolve(due, [first, second], now: "2026-11-05T12:00:00Z")
                == [.fulfilled([.init(txid: "a", value: 6_000), .init(txid: "b", value: 5_000)])])
        // Dated before the due date or at the window's end: outside.
        #expect(resolve(due, [deposit("early", 50_000, "2026-11-01T23:59:59Z"), deposit("late", 50_000, "2026-11-09T00:00:00Z")],
                        now: "2026-11-10T00:00:00Z") == [.missed])
    }

    @Test("one deposit fulfils one reminder only: the earlier due date takes it, the other stays short")
    func oneDepositOneReminder() {
        let reminders = [reminder("Daily", due: "2026-11-03"), reminder("Daily", due: "2026-11-02")]
        let big = deposit("big", 20_000, "2026-11-03T10:00:00Z")
        let outcomes = ReminderMatcher.resolve(reminders, deposits: [big], now: .at("2026-11-10T00:00:00Z"), value: { d, _ in d.amount })
        #expect(outcomes.map(\.0.due) == days(["2026-11-02", "2026-11-03"]))
        #expect(outcomes.map(\.1) == [.fulfilled([.init(txid: "big", value: 20_000)]), .missed])
        // Same due date: plans take deposits in the order of their names (case-insensitively).
        let two = [reminder("beta", id: 2, due: "2026-11-02"), reminder("Alpha", id: 1, due: "2026-11-02")]
        let named = ReminderMatcher.resolve(two, deposits: [big], now: .at("2026-11-04T00:00:00Z"), value: { d, _ in d.amount })
        #expect(named.map(\.0.planName) == ["Alpha", "beta"])
        #expect(named.map(\.1) == [.fulfilled([.init(txid: "big", value: 20_000)]), .pending(waitingFor: nil)])
    }

    @Test("after its window a reminder waits for an unconfirmed deposit, or for a rate, instead of being missed")
    func undecided() {
        let due = [reminder("Rent", due: "2026-11-02")]
        #expect(resolve(due, [deposit("mempool", 20_000, "2026-11-08T22:00:00Z", confirmed: false)], now: "2026-11-09T06:00:00Z")
                == [.pending(waitingFor: .confirmation(txid: "mempool"))])
        let sats = deposit("sats", 20_000, "2026-11-03T00:00:00Z", currency: .btc)
        #expect(resolve(due, [sats], now: "2026-11-09T06:00:00Z", value: { _, _ in nil })
                == [.pending(waitingFor: .rate(txid: "sats", pair: CurrencyPair(base: .btc, quote: .usd), date: .at("2026-11-03T00:00:00Z")))])
        // Valued in the plan's currency: 20,000 sat at 60,000 USD/BTC = 12.00 USD = 1,200 cents.
        let priced = resolve([reminder("Rent", due: "2026-11-02", amount: 1_000)], [sats], now: "2026-11-04T00:00:00Z",
                             value: { d, currency in currency == .usd ? d.amount * 60_000 * 100 / 100_000_000 : nil })
        #expect(priced == [.fulfilled([.init(txid: "sats", value: 1_200)])])
    }

    @Test("saving-plan add's checks: every refusal names the input and what is accepted; the defaults")
    func request() throws {
        let goal = Goal(id: 1, name: "House", currency: .usd, target: 100_000, deadline: nil, createdAt: .at("2026-01-01T00:00:00Z"))
        let cash = Asset(id: 2, name: "Cash", currency: .usd, kind: .manual, source: nil, createdAt: .at("2026-01-01T00:00:00Z"))
        let wallet = Asset(id: 3, name: "Ark wallet", currency: .btc, kind: .ark, source: "ark", createdAt: .at("2026-01-01T00:00:00Z"))
        let today = Day("2026-11-21")!
        func plan(_ request: SavingPlanRequest, asset: Asset = cash, goal: Goal = goal) throws(Refusal) -> SavingPlan {
            try request.plan(goal: goal, asset: asset, today: today, now: .at("2026-11-21T12:00:00Z"))
        }
        let defaults = try plan(SavingPlanRequest(name: " Rent ", goal: "House", asset: "Cash", amount: "250.50"))
        #expect(defaults.name == "Rent" && defaults.amount == 25_050 && defaults.currency == .usd)
        #expect(defaults.every == .month && defaults.start == today && defaults.method == .reminder)
        #expect(try plan(SavingPlanRequest(name: "S", goal: "House", asset: "Ark wallet", amount: "15000sat"), asset: wallet).amount == 15_000)
        #expect(try plan(SavingPlanRequest(name: "S", goal: "House", asset: "Ark wallet", amount: "50", currency: "eur", every: "WEEK"),
                         asset: wallet).currency == .eur)

        func refusal(_ request: SavingPlanRequest, asset: Asset = cash, goal: Goal = goal) -> String {
            do {
                _ = try plan(request, asset: asset, goal: goal)
                return "accepted"
            } catch {
                return error.message
            }
        }
        let base = SavingPlanRequest(name: "Rent", goal: "House", asset: "Cash", amount: "100")
        var r = base
        r.amount = "0"
        #expect(refusal(r) == "--amount '0' is not positive; a saving plan puts a positive amount aside, like 100 or 0.001")
        r.amount = "-5"
        #expect(refusal(r).hasPrefix("--amount '-5' is not positive"))
        r.amount = "lots"
        #expect(refusal(r) == "--amount 'lots' is not an amount; write it like 250.50, 0.015")
        r = base
        r.every = "fortnight"
        #expect(refusal(r) == "--every 'fortnight' is not accepted; use day, week, month")
        r = base
        r.method = "magic"
        #expect(refusal(r) == "--method 'magic' is not accepted; use reminder, automatic")
        r = base
        r.start = "2026-02-30"
        #expect(refusal(r) == "--start '2026-02-30' is not a date; write it like 2026-11-21")
        r = base
        r.currency = "XYZ"
        #expect(refusal(r).hasPrefix("--currency: unknown currency 'XYZ'"))
        r = base
        r.method = "automatic"
        #expect(refusal(r, asset: wallet).hasPrefix("an automatic plan records its deposits itself, and only a manual asset takes them; 'Ark wallet' is fed by source 'ark'"))
        // In another currency than the asset's: accepted (SPEC.md section 25: 100 USD a month
        // into ETH books amount / price at each date).
        r.currency = "EUR"
        let automaticInEUR = try plan(r)
        #expect(automaticInEUR.method == .automatic && automaticInEUR.currency == .eur && automaticInEUR.amount == 10_000)
        var cancelled = goal
        cancelled.status = .cancelled
        #expect(refusal(base, goal: cancelled) == "goal 'House' is cancelled; a saving plan needs an active goal")
        r = base
        r.name = "  "
        #expect(refusal(r) == "saving plan name is empty; give it at least one character")
    }
}

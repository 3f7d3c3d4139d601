import Testing
@testable import WalletWatchCore

@Suite("Manual ledger rules")
struct ManualLedgerTests {
    let now = Instant(iso8601: "2026-11-21T12:00:00Z")!

    func entry(_ txid: String, _ amount: Int128, _ date: String) -> LedgerEntry {
        LedgerEntry(txid: txid, amount: amount, date: Instant(iso8601: date + "T10:00:00Z")!)
    }

    func refusal(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return (error as? Refusal)?.message ?? "not a refusal: \(error)" }
    }

    @Test("a zero amount is refused")
    func zero() {
        let message = refusal { try ManualLedger.checkAdd(entry("a", 0, "2026-11-01"), existing: [], now: now, currency: .usd) }
        #expect(message?.contains("zero") == true)
    }

    @Test("a future date is refused, naming the date and now")
    func future() {
        let message = refusal { try ManualLedger.checkAdd(entry("a", 100, "2026-11-22"), existing: [], now: now, currency: .usd) }
        #expect(message?.contains("2026-11-22T10:00:00.000Z") == true)
        #expect(message?.contains("2026-11-21T12:00:00.000Z") == true)
        // Exactly now is allowed.
        #expect(refusal { try ManualLedger.checkAdd(LedgerEntry(txid: "b", amount: 1, date: now), existing: [], now: now, currency: .usd) } == nil)
    }

    @Test("a withdrawal beyond the balance at its date is refused, naming that balance")
    func withdrawalBeyondBalance() {
        let existing = [entry("d1", 25050, "2026-11-02")]
        let message = refusal { try ManualLedger.checkAdd(entry("w", -30000, "2026-11-03"), existing: existing, now: now, currency: .usd) }
        #expect(message?.contains("250.50 USD") == true)
        #expect(message?.contains("300.00 USD") == true)
        // The balance at its date counts only what came before: a later deposit does not help.
        let later = existing + [entry("d2", 100_000, "2026-11-10")]
        #expect(refusal { try ManualLedger.checkAdd(entry("w", -30000, "2026-11-03"), existing: later, now: now, currency: .usd) } != nil)
        #expect(refusal { try ManualLedger.checkAdd(entry("w", -25050, "2026-11-03"), existing: existing, now: now, currency: .usd) } == nil)
    }

    @Test("a backdated withdrawal that makes a later point negative names the later transaction")
    func laterPointNegative() {
        let existing = [entry("d1", 10000, "2026-11-01"), entry("w1", -10000, "2026-11-05")]
        let message = refusal { try ManualLedger.checkAdd(entry("w2", -5000, "2026-11-03"), existing: existing, now: now, currency: .usd) }
        #expect(message?.contains("w1") == true)
        #expect(message?.contains("-50.00 USD") == true)
    }

    @Test("amounts at the same instant are applied together")
    func sameInstant() {
        let existing = [entry("d1", 500, "2026-11-01")]
        #expect(refusal { try ManualLedger.checkAdd(entry("w", -500, "2026-11-01"), existing: existing, now: now, currency: .usd) } == nil)
    }

    @Test("an edit that would make a later balance negative names the later transaction and what to do")
    func editBreaksLater() {
        let existing = [entry("d1", 10000, "2026-11-01"), entry("w1", -8000, "2026-11-05")]
        let message = refusal {
            try ManualLedger.checkEdit(txid: "d1", replacement: entry("d1", 5000, "2026-11-01"), existing: existing, now: now, currency: .usd)
        }
        #expect(message?.contains("w1") == true)
        #expect(message?.contains("edit or delete w1 first") == true)
        // Moving the deposit after the withdrawal breaks it too.
        #expect(refusal {
            try ManualLedger.checkEdit(txid: "d1", replacement: entry("d1", 10000, "2026-11-06"), existing: existing, now: now, currency: .usd)
        } != nil)
        #expect(refusal {
            try ManualLedger.checkEdit(txid: "d1", replacement: entry("d1", 8000, "2026-11-02"), existing: existing, now: now, currency: .usd)
        } == nil)
    }

    @Test("an edit of a withdrawal beyond its balance is refused; edits obey the zero and future rules")
    func editWithdrawal() {
        let existing = [entry("d1", 10000, "2026-11-01"), entry("w1", -8000, "2026-11-05")]
        #expect(refusal {
            try ManualLedger.checkEdit(txid: "w1", replacement: entry("w1", -12000, "2026-11-05"), existing: existing, now: now, currency: .usd)
        }?.contains("changing w1") == true)
        #expect(refusal {
            try ManualLedger.checkEdit(txid: "w1", replacement: entry("w1", 0, "2026-11-05"), existing: existing, now: now, currency: .usd)
        }?.contains("zero") == true)
        #expect(refusal {
            try ManualLedger.checkEdit(txid: "w1", replacement: entry("w1", -100, "2027-01-01"), existing: existing, now: now, currency: .usd)
        }?.contains("future") == true)
    }

    @Test("deleting a deposit a later withdrawal needs is refused")
    func deleteDeposit() {
        let existing = [entry("d1", 10000, "2026-11-01"), entry("d2", 1000, "2026-11-02"), entry("w1", -9000, "2026-11-05")]
        #expect(refusal { try ManualLedger.checkDelete(txid: "d1", existing: existing, currency: .usd) }?.contains("w1") == true)
        #expect(refusal { try ManualLedger.checkDelete(txid: "d2", existing: existing, currency: .usd) } == nil)
        #expect(refusal { try ManualLedger.checkDelete(txid: "w1", existing: existing, currency: .usd) } == nil)
    }

    @Test("balance at an instant")
    func balanceAt() {
        let entries = [entry("d1", 10000, "2026-11-01"), entry("w1", -3000, "2026-11-05")]
        #expect(ManualLedger.balance(of: entries, at: Instant(iso8601: "2026-11-04T00:00:00Z")!) == 10000)
        #expect(ManualLedger.balance(of: entries, at: now) == 7000)
    }
}

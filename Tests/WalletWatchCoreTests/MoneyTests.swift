import Testing
@testable import WalletWatchCore

@Suite("Money parsing and formatting")
struct MoneyTests {
    @Test("major units with 0, 2 and 8 decimal places", arguments: [
        ("250.50", Currency.usd, Int64(25050)),
        ("250.5", .usd, 25050),
        ("250", .usd, 25000),
        ("0.01", .usd, 1),
        (".5", .eur, 50),
        ("0.015", .btc, 1_500_000),
        ("21000000", .btc, 2_100_000_000_000_000),
        ("0.00000001", .btc, 1),
        ("1500", .jpy, 1500),
        ("-20", .usd, -2000),
        ("-0.5", .btc, -50_000_000),
        ("+3.25", .usd, 325),
        (" 7.00 ", .usd, 700),
    ])
    // Int64 here: Swift Testing 6.3 crashes (a jump to address 0) running cases of arguments
    // (String, Currency, Int128), an Int128 after other tuple elements; Int128 first works.
    func parsesMajorUnits(text: String, currency: Currency, minor: Int64) throws {
        #expect(try AmountInput.parse(text, currency: currency) == .minorUnits(Int128(minor)))
    }

    @Test("sats suffix for BTC only")
    func satsSuffix() throws {
        #expect(try AmountInput.parse("1500sat", currency: .btc) == .minorUnits(1500))
        #expect(try AmountInput.parse("1500sats", currency: .btc) == .minorUnits(1500))
        #expect(try AmountInput.parse("-250sat", currency: .btc) == .minorUnits(-250))
        #expect(throws: UsageError.self) { try AmountInput.parse("1500sat", currency: .usd) }
        #expect(throws: UsageError.self) { try AmountInput.parse("1.5sat", currency: .btc) }
    }

    @Test("percentages only where allowed")
    func percentages() throws {
        #expect(try AmountInput.parse("40%", currency: .btc, allowPercent: true) == .percent(Percentage(digits: 40, decimalPlaces: 0)))
        #expect(try AmountInput.parse("12.5%", currency: .usd, allowPercent: true) == .percent(Percentage(digits: 125, decimalPlaces: 1)))
        #expect(throws: UsageError.self) { try AmountInput.parse("40%", currency: .usd) }
        #expect(throws: UsageError.self) { try AmountInput.parse("-5%", currency: .usd, allowPercent: true) }
        #expect(throws: UsageError.self) { try AmountInput.parse("abc%", currency: .usd, allowPercent: true) }
        #expect(Percentage(digits: 1000, decimalPlaces: 1).isWhole)
        #expect(!Percentage(digits: 99, decimalPlaces: 0).isWhole)
    }

    @Test("percentage shares round half to even", arguments: [
        (Percentage(digits: 40, decimalPlaces: 0), Int128(1000), Int128(400)),
        (Percentage(digits: 3333, decimalPlaces: 2), 100, 33),
        (Percentage(digits: 50, decimalPlaces: 0), 3, 2),   // 1.5 -> 2
        (Percentage(digits: 50, decimalPlaces: 0), 1, 0),   // 0.5 -> 0
        (Percentage(digits: 50, decimalPlaces: 0), 5, 2),   // 2.5 -> 2
        (Percentage(digits: 100, decimalPlaces: 0), 123_456_789, 123_456_789),
    ])
    func percentageShares(percentage: Percentage, balance: Int128, share: Int128) {
        #expect(percentage.share(of: balance) == share)
        #expect(Percentage.shares(of: balance, [percentage]) == [share], "alone, rounded together is the same")
    }

    @Test("percentages of one balance are rounded together: never more than the balance when they add up to 100%")
    func sharesTogether() throws {
        let half = Percentage(digits: 50, decimalPlaces: 0)
        let third = Percentage(digits: 3333333, decimalPlaces: 5)  // 33.33333%
        // 1003 x 50% = 501.5 each: rounded alone both are 502 (1004 > 1003).
        #expect(half.share(of: 1003) == 502)
        #expect(Percentage.shares(of: 1003, [half, half]) == [502, 501])
        // Three thirds of 100: 33.333333 each, 99.999999 in all -> 100; the first gets the unit.
        #expect(Percentage.shares(of: 100, [third, third, third]) == [34, 33, 33])
        // 30% + 70% of 999: 299.7 and 699.3 -> 300 and 699.
        #expect(Percentage.shares(of: 999, [Percentage(digits: 30, decimalPlaces: 0), Percentage(digits: 70, decimalPlaces: 0)]) == [300, 699])
        #expect(Percentage.shares(of: 12_345, []) == [])
    }

    @Test("malformed input is refused with a message naming it", arguments: [
        "", "abc", "1.2.3", "1,000", "--5", "5.", "1e5", "0x10", "12 34", "٣", "9999999999999999999999999999999999999999",
    ])
    func malformed(text: String) {
        #expect {
            try AmountInput.parse(text, currency: .usd)
        } throws: { error in
            (error as? UsageError)?.message.contains("'\(text)'") == true
        }
    }

    @Test("more decimals than the currency has is refused, not rounded")
    func tooManyDecimals() {
        #expect(throws: UsageError.self) { try AmountInput.parse("0.015", currency: .usd) }
        #expect(throws: UsageError.self) { try AmountInput.parse("1500.5", currency: .jpy) }
        #expect(throws: UsageError.self) { try AmountInput.parse("0.000000001", currency: .btc) }
    }

    @Test("formatting in major units", arguments: [
        (Int128(25050), Currency.usd, "250.50"),
        (-1_500_000, .btc, "-0.01500000"),
        (1500, .jpy, "1500"),
        (-5, .usd, "-0.05"),
        (0, .eur, "0.00"),
        (Int128(Int64.min), .usd, "-92233720368547758.08"),
        (Int128.min, .usd, "-1701411834604692317316873037158841057.28"),
        (Int128.max, .eth, "170141183460469231731.687303715884105727"),
    ])
    func formatting(minor: Int128, currency: Currency, text: String) {
        #expect(Money(minorUnits: minor, currency: currency).majorString == text)
    }

    @Test("formatting and parsing round-trip")
    func roundTrip() throws {
        for minor: Int128 in [0, 1, -1, 99, 100, 123_456_789, -987_654_321_012] {
            for currency in [Currency.usd, .btc, .jpy, try Currency(code: "KWD")] {
                let text = Money(minorUnits: minor, currency: currency).majorString
                #expect(try AmountInput.parse(text, currency: currency) == .minorUnits(minor))
            }
        }
    }

    @Test("currencies carry their ISO 4217 exponents")
    func currencies() throws {
        #expect(Currency.btc.exponent == 8)
        #expect(Currency.usd.exponent == 2)
        #expect(Currency.eur.exponent == 2)
        #expect(Currency.jpy.exponent == 0)
        #expect(try Currency(code: "kwd").exponent == 3)
        #expect(try Currency(code: "chf").code == "CHF")
        #expect(throws: CurrencyError(code: "XYZ")) { try Currency(code: "XYZ") }
    }
}

@Suite("Rounding half to even")
struct RoundingTests {
    @Test("integer quotients", arguments: [
        (Int128(5), Int128(2), Int128(2)), (7, 2, 4), (-5, 2, -2), (-7, 2, -4), (5, -2, -2),
        (1, 3, 0), (2, 3, 1), (-2, 3, -1), (10, 5, 2), (0, 7, 0), (15, 10, 2), (25, 10, 2), (35, 10, 4),
    ])
    func quotients(numerator: Int128, denominator: Int128, expected: Int128) {
        #expect(Rounding.halfEven(numerator, denominator) == expected)
    }

    @Test("decimals", arguments: [("2.5", Int128(2)), ("3.5", 4), ("-2.5", -2), ("2.5000001", 3), ("-0.4", 0), ("1234567.5", 1234568)])
    func decimals(text: String, expected: Int128) {
        #expect(Rounding.halfEven(Decimal(string: text)!) == expected)
    }

    @Test("a decimal too large for 128 bits is nil, never a wrong number")
    func overflow() {
        #expect(Rounding.halfEven(Decimal(string: "1e39")!) == nil)
    }
}

import Foundation

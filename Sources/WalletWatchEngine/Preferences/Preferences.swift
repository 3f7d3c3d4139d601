import Foundation
import WalletWatchCore
import WalletWatchStore

/// The keys of `walletwatch settings` and what each accepts.
public enum SettingKey: String, CaseIterable, Sendable {
    /// The currency month totals and remaining amounts are shown in (default: the first of
    /// `[rates] currencies`, else USD).
    case displayCurrency = "display_currency"
    /// How long `month undo-start` and `month undo-complete` stay possible (default 24).
    case undoGraceHours = "undo_grace_hours"
    /// The time zone of tables (default: the config's `time_zone`, else UTC).
    case timeZone = "time_zone"
    /// What you mean to save a month, in the display currency (optional).
    case monthlyBudget = "monthly_budget"

    /// What the key accepts, for messages and help.
    public var accepted: String {
        switch self {
        case .displayCurrency: "an ISO 4217 code such as USD or EUR, or BTC"
        case .undoGraceHours: "a whole number of hours from 0 to 8760"
        case .timeZone: "an IANA time zone such as Europe/Berlin, or UTC"
        case .monthlyBudget: "an amount such as 500 or 500.00 EUR"
        }
    }
}

/// The settings kept in the database (`walletwatch settings`), with the config's defaults.
public struct Preferences: Sendable {
    let database: AppDatabase
    let config: AppConfig

    init(database: AppDatabase, config: AppConfig) {
        self.database = database
        self.config = config
    }

    /// Validates and stores a setting; returns the stored value.
    public func set(_ keyName: String, _ value: String) throws -> String {
        let key = try settingKey(keyName)
        let stored: String
        switch key {
        case .displayCurrency:
            stored = try database.currencyRegistry().currency(value).code
        case .undoGraceHours:
            guard let hours = Int(value.trimmingSpaces), (0...8760).contains(hours) else {
                throw UsageError("undo_grace_hours '\(value)' is not accepted; use \(key.accepted)")
            }
            stored = String(hours)
        case .timeZone:
            guard let zone = TimeZone(identifier: value.trimmingSpaces) else {
                throw UsageError("time_zone '\(value)' is not accepted; use \(key.accepted)")
            }
            stored = zone.identifier
        case .monthlyBudget:
            let parts = value.trimmingSpaces.split(separator: " ")
            guard (1...2).contains(parts.count) else { throw UsageError("monthly_budget '\(value)' is not accepted; use \(key.accepted)") }
            let currency = parts.count == 2 ? try database.currencyRegistry().currency(String(parts[1])) : try displayCurrency()
            let amount = try AmountInput.parseMoney(String(parts[0]), currency: currency)
            guard amount.minorUnits >= 0 else { throw UsageError("monthly_budget must not be negative") }
            stored = amount.description
        }
        try database.setSetting(key.rawValue, stored)
        return stored
    }

    /// Removes a setting, so that its default applies again.
    public func unset(_ keyName: String) throws {
        try database.setSetting(try settingKey(keyName).rawValue, nil)
    }

    /// Every key with its value and whether that is the default.
    public func list() throws -> [(key: SettingKey, value: String?, isDefault: Bool)] {
        let stored = try database.settings()
        return try SettingKey.allCases.map { key in
            if let value = stored[key.rawValue] { return (key, value, false) }
            return (key, try defaultValue(key), true)
        }
    }

    /// The value of one key (its default when unset).
    public func value(_ keyName: String) throws -> String? {
        let key = try settingKey(keyName)
        return try database.setting(key.rawValue) ?? defaultValue(key)
    }

    private func defaultValue(_ key: SettingKey) throws -> String? {
        switch key {
        case .displayCurrency: (config.rates.currencies.first ?? .usd).code
        case .undoGraceHours: "24"
        case .timeZone: config.timeZone ?? "UTC"
        case .monthlyBudget: nil
        }
    }

    private func settingKey(_ name: String) throws -> SettingKey {
        guard let key = SettingKey(rawValue: name) else {
            throw UsageError("'\(name)' is not a setting; use one of \(SettingKey.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return key
    }

    /// The currency month figures are shown in.
    public func displayCurrency() throws -> Currency {
        if let code = try database.setting(SettingKey.displayCurrency.rawValue) { return try database.currencyRegistry().currency(code) }
        return config.rates.currencies.first ?? .usd
    }

    /// How long a start or completion can be undone.
    public func undoGrace() throws -> Int64 {
        Int64(try database.setting(SettingKey.undoGraceHours.rawValue).flatMap { Int($0) } ?? 24) * 3600
    }

    /// The monthly budget, when set.
    public func monthlyBudget() throws -> Money? {
        guard let text = try database.setting(SettingKey.monthlyBudget.rawValue) else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count == 2, let currency = try? database.currencyRegistry().currency(String(parts[1])),
              let money = try? AmountInput.parseMoney(String(parts[0]), currency: currency) else { return nil }
        return money
    }

    /// The time zone tables are printed in: the `time_zone` setting, else the config's, else UTC.
    public var displayTimeZone: TimeZone {
        let name = (try? database.setting(SettingKey.timeZone.rawValue)) ?? config.timeZone
        return name.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }
}

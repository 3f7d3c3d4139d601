/// The body edits behind the "wrong type", "negative amount" and "missing field" faults. Each
/// edits the first match in document order (depth-first) and reports whether it found one.
extension SimJSON {
    /// Turns the first integer (an object member's or an array element's) into a string.
    mutating func turnFirstIntegerIntoString() -> Bool {
        switch self {
        case .number(let text) where !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }):
            self = .string(text)
            return true
        case .array(var values):
            for index in values.indices where values[index].turnFirstIntegerIntoString() {
                self = .array(values)
                return true
            }
            return false
        case .object(var members):
            for index in members.indices where members[index].value.turnFirstIntegerIntoString() {
                self = .object(members)
                return true
            }
            return false
        default:
            return false
        }
    }

    /// Makes the first amount that must be >= 0 negative (0 becomes -1). A bare top-level
    /// number (Esplora's tip height) counts as one.
    mutating func negateFirstAmount() -> Bool {
        if case .number(let text) = self {
            self = .number(SimJSON.negated(text))
            return true
        }
        return negateFirstAmountMember()
    }

    private mutating func negateFirstAmountMember() -> Bool {
        switch self {
        case .array(var values):
            for index in values.indices where values[index].negateFirstAmountMember() {
                self = .array(values)
                return true
            }
            return false
        case .object(var members):
            for index in members.indices {
                if case .number(let text) = members[index].value, SimJSON.isUnsignedAmount(members[index].key),
                   !text.hasPrefix("-") {
                    members[index].value = .number(SimJSON.negated(text))
                    self = .object(members)
                    return true
                }
                if members[index].value.negateFirstAmountMember() {
                    self = .object(members)
                    return true
                }
            }
            return false
        default:
            return false
        }
    }

    /// Drops the first key of the first object.
    mutating func dropFirstKey() -> Bool {
        switch self {
        case .object(var members):
            guard !members.isEmpty else { return false }
            members.removeFirst()
            self = .object(members)
            return true
        case .array(var values):
            for index in values.indices where values[index].dropFirstKey() {
                self = .array(values)
                return true
            }
            return false
        default:
            return false
        }
    }

    /// Applies one of the body-editing faults; false when the body has nothing to edit.
    mutating func apply(_ kind: FaultKind) -> Bool {
        switch kind {
        case .wrongType: turnFirstIntegerIntoString()
        case .negativeAmount: negateFirstAmount()
        case .missingField: dropFirstKey()
        default: false
        }
    }

    /// Keys whose values the APIs promise to be >= 0 (signed balance changes are not among them).
    static func isUnsignedAmount(_ key: String) -> Bool {
        if key.hasSuffix("_sat") {
            return !["intended_balance_sat", "effective_balance_sat", "balance_change_sat"].contains(key)
        }
        if ["value", "fee", "funded_txo_sum", "spent_txo_sum"].contains(key) { return true }
        // Prices: CoinGecko's `usd`, mempool's `USD`.
        return key.count == 3 && key.allSatisfy(\.isLetter)
    }

    private static func negated(_ text: String) -> String {
        if text.hasPrefix("-") { return text }
        if text.allSatisfy({ $0 == "0" || $0 == "." }) { return "-1" }
        return "-" + text
    }
}

/// A JSON-RPC error answered by the Electrum face: ElectrumX's codes and wording where it has one.
struct ElectrumError: Error, Sendable, Hashable {
    let code: Int
    let message: String
    /// Whether the connection closes once the error is written (ElectrumX's `ReplyAndDisconnect`).
    let disconnects: Bool

    init(_ code: Int, _ message: String, disconnects: Bool = false) {
        self.code = code
        self.message = message
        self.disconnects = disconnects
    }

    /// ElectrumX's code for a request it refuses (`BAD_REQUEST` in session.py).
    static let badRequest = 1
    /// ElectrumX's code for what the daemon refused (`DAEMON_ERROR`).
    static let daemonError = 2
    /// ElectrumX's `RPC_ERROR_HISTORY_TOO_LONG`, sent as "history too large".
    static let historyTooLong = 10_001

    static func bad(_ message: String) -> ElectrumError { ElectrumError(badRequest, message) }

    /// aiorpcx's answer to an unknown method.
    static func unknownMethod(_ method: String) -> ElectrumError { ElectrumError(-32601, "unknown method \"\(method)\"") }

    /// ElectrumX's refusal of a script's history beyond its `MAX_SEND` (session.py, `limited_history`).
    static let historyTooLarge = ElectrumError(historyTooLong, "history too large")

    /// ElectrumX's refusal of a height above its tip.
    static func outOfRange(_ height: Int) -> ElectrumError { .bad("height \(grouped(height)) out of range") }

    /// A number as Python's `{n:,d}` writes it in ElectrumX's messages: digits grouped by commas.
    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped
    }

    /// The JSON-RPC error object.
    var json: JSONValue { .object([.init("code", .int(Int64(code))), .init("message", .string(message))]) }
}

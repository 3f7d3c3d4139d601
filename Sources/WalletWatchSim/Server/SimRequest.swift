/// The parts of an HTTP request the simulated APIs look at.
struct SimRequest: Sendable {
    let method: String
    /// The path without the query.
    let path: String
    /// The raw query, without `?`.
    let query: String?
    /// The query's parameters, percent-decoded; the first of a repeated name wins. `+` stays
    /// `+` (an offset in `since` must survive).
    let parameters: [String: String]
    let authorization: String?

    init(method: String, path: String, query: String?, authorization: String?) {
        self.method = method
        self.path = path
        self.query = query
        self.authorization = authorization
        var parameters: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = SimRequest.percentDecoded(String(parts[0]))
            if parameters[name] == nil {
                parameters[name] = parts.count > 1 ? SimRequest.percentDecoded(String(parts[1])) : ""
            }
        }
        self.parameters = parameters
    }

    /// The path's segments after `prefix`, or nil when the path does not start with it.
    func segments(after prefix: String) -> [String]? {
        guard path == prefix || path.hasPrefix(prefix + "/") else { return nil }
        return path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            .dropFirst().map(String.init)
    }

    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

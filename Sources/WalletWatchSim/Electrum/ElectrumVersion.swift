/// A protocol version as a tuple of numbers ("1.4.2" is [1, 4, 2]), compared as ElectrumX's
/// `util.protocol_tuple` compares them.
struct ElectrumVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    let parts: [Int]

    /// The versions the face speaks: 1.4 to 1.6 (1.7 drops `blockchain.scripthash.*`).
    static let minimum = ElectrumVersion(parts: [1, 4])
    static let maximum = ElectrumVersion(parts: [1, 6])

    /// `text` read as ElectrumX reads it; a malformed one is version 0.
    init(_ text: String) {
        let numbers = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        parts = numbers.contains(nil) || numbers.isEmpty ? [0] : numbers.compactMap { $0 }
    }

    init(parts: [Int]) { self.parts = parts }

    static func < (lhs: ElectrumVersion, rhs: ElectrumVersion) -> Bool { lhs.parts.lexicographicallyPrecedes(rhs.parts) }

    /// "1.4", always with a dot.
    var description: String { (parts.count < 2 ? parts + [0] : parts).map(String.init).joined(separator: ".") }

    /// The version to speak with a client asking for `requested` (a string, or `[min, max]`;
    /// absent: 1.4), by ElectrumX's rule: the lower of the maxima, if it is not below the higher
    /// of the minima; nil when there is none.
    static func negotiate(_ requested: JSONValue?) -> ElectrumVersion? {
        let (low, high): (ElectrumVersion, ElectrumVersion)
        switch requested {
        case nil, .null?:
            (low, high) = (minimum, minimum)
        case .array(let pair)? where pair.count == 2:
            (low, high) = (version(pair[0]), version(pair[1]))
        case let value?:
            (low, high) = (version(value), version(value))
        }
        let result = Swift.min(high, maximum)
        guard result >= Swift.max(low, minimum), result != ElectrumVersion(parts: [0]) else { return nil }
        return result
    }

    private static func version(_ value: JSONValue) -> ElectrumVersion {
        if case .string(let text) = value { return ElectrumVersion(text) }
        return ElectrumVersion(parts: [0])
    }
}

import WalletWatchCore

/// An instant in UTC, exact to the millisecond, written the way barkd's chrono does it
/// (`2026-11-21T12:00:00Z`, or `2026-11-21T12:00:00.250Z` when it has milliseconds).
///
/// Milliseconds, not nanoseconds, because walletwatch keeps instants to the millisecond: a
/// notification time that a client parses and sends back as `since` must compare equal.
/// The calendar arithmetic is walletwatch's own ``WalletWatchCore/Instant``.
public struct SimTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    /// The instant `milliseconds` after the Unix epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The instant `seconds` after the Unix epoch.
    public init(unixSeconds seconds: Int64) {
        self.milliseconds = seconds * 1000
    }

    /// Parses RFC 3339 / ISO 8601 with a zone (`Z`, `+02:00`, `+0200`); fractions beyond
    /// milliseconds are truncated. A space may stand for the zone's `+` (an unescaped `+` in
    /// a query).
    public init?(iso8601 text: String) {
        // The zone starts after `yyyy-MM-ddTHH:mm:ss`, 19 characters in.
        let zoneFixed = String(text.enumerated().map { $0.offset >= 19 && $0.element == " " ? "+" : $0.element })
        guard let instant = Instant(iso8601: zoneFixed) else { return nil }
        milliseconds = instant.millisecondsSinceEpoch
    }

    /// Whole seconds since the Unix epoch (rounded down).
    public var unixSeconds: Int64 { milliseconds >= 0 ? milliseconds / 1000 : -((999 - milliseconds) / 1000) }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Int64) -> SimTime { SimTime(milliseconds: milliseconds + seconds * 1000) }

    /// The instant `milliseconds` later (earlier when negative).
    public func adding(milliseconds delta: Int64) -> SimTime { SimTime(milliseconds: milliseconds + delta) }

    public static func < (lhs: SimTime, rhs: SimTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// RFC 3339 in UTC with `Z`; milliseconds only when not zero (chrono's `AutoSi`).
    public var iso8601: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { iso8601 }

    /// Appends the RFC 3339 text to `bytes` without building a String (the streaming hot path).
    func append(to bytes: inout [UInt8]) {
        Instant(millisecondsSinceEpoch: milliseconds).withISO8601Bytes { text in
            // `yyyy-MM-ddTHH:mm:ss.SSSZ`, without `.000` for a whole second.
            bytes.append(contentsOf: milliseconds % 1000 == 0 ? text[0..<19] : text[0..<23])
            bytes.append(UInt8(ascii: "Z"))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = SimTime(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 instant: \(text)")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}

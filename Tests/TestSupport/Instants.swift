import WalletWatchCore

extension Instant {
    /// An instant from ISO 8601 text in tests (crashes on a typo, which is what a test wants).
    public static func at(_ text: String) -> Instant {
        guard let instant = Instant(iso8601: text) else { fatalError("not an ISO 8601 instant: \(text)") }
        return instant
    }
}

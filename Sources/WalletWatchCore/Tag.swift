import Foundation

/// A user label for transactions. Tags attach to txids, not to ledger rows, so no refresh can
/// lose them.
public struct Tag: Hashable, Sendable {
    public var id: UUID
    /// Unique, compared case-insensitively; trimmed, 1 to 64 characters.
    public var name: String
    /// `#RRGGBB`, or nil.
    public var colorHex: String?
    /// A single emoji, or nil.
    public var emoji: String?
    /// Inactive tags stay on their transactions but cannot be newly assigned.
    public var isActive: Bool
    public var createdAt: Instant

    public init(id: UUID = UUID(), name: String, colorHex: String? = nil, emoji: String? = nil,
                isActive: Bool = true, createdAt: Instant) {
        self.id = id
        self.name = name
        self.colorHex = colorHex
        self.emoji = emoji
        self.isActive = isActive
        self.createdAt = createdAt
    }
}

/// One watched address of an HD wallet as `asset addresses` lists it.
public struct WalletAddressListing: Sendable, Hashable {
    /// The address and what is known about it.
    public let address: WalletAddress
    /// The goal it is reserved for (`goal address`), if any.
    public let reservedFor: String?

    /// An address and its reservation.
    public init(address: WalletAddress, reservedFor: String?) {
        self.address = address
        self.reservedFor = reservedFor
    }
}

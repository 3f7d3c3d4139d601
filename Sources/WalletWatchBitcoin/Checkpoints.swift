/// The chain's blocks a wallet can trust without asking anyone: the hash of the last block of
/// each difficulty period (blocks 2015, 4031, ...), and on Bitcoin's main network the target
/// of the period after each. A header that leads, block by block, to one of these hashes is
/// on the chain (a hash cannot be forged). walletwatch ships Electrum's own
/// (`Checkpoints+Electrum.swift`, made by `scripts/make-checkpoints`); a chain without them
/// (regtest) starts from its genesis block.
public struct Checkpoints: Sendable {
    /// Entry `i`: the hash (as displayed) of block `2016 * (i + 1) - 1`.
    public let hashes: [String]
    /// Entry `i`: the bits of the blocks of period `i + 1`; nil where Electrum checks no
    /// difficulty (the test networks).
    public let bits: [UInt32]?

    /// Checkpoints from their text: hashes one per line, bits as hex separated by spaces.
    init(hashes: String, bits: String?) {
        self.hashes = hashes.split(whereSeparator: \.isWhitespace).map(String.init)
        self.bits = bits.map { $0.split(whereSeparator: \.isWhitespace).compactMap { UInt32($0, radix: 16) } }
    }

    /// None: the genesis block is the only block known.
    public static let none = Checkpoints(hashes: "", bits: nil)

    /// Blocks in a difficulty period.
    public static let period: Int64 = 2016

    /// The height of the last block they name; nil when there are none.
    public var lastHeight: Int64? {
        hashes.isEmpty ? nil : Int64(hashes.count) * Self.period - 1
    }

    /// The hash of the checkpoint that ends the period holding `height`, when there is one.
    public func hash(endingPeriodOf height: Int64) -> String? {
        let index = Int(height / Self.period)
        return height >= 0 && index < hashes.count ? hashes[index] : nil
    }
}

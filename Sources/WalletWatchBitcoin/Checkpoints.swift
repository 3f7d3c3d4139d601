/// The chain's blocks a wallet can trust without asking anyone: the hash of the last block of
/// each difficulty period (blocks 2015, 4031, ...), and on Bitcoin's main network the target
/// of the period after each. A header that leads, block by block, to one of these hashes is
/// on the chain (a hash cannot be forged).
///
/// walletwatch ships Electrum's own, as Debian 12 packages Electrum 4.3.4 (python3-electrum:
/// `checkpoints.json` for Bitcoin, to block 747,935, and `checkpoints_testnet.json` for
/// testnet3), written into `Checkpoints+Electrum.swift` by `scripts/make-checkpoints` from the
/// installed package. That version has none for testnet4 or signet, and regtest has none: on
/// those chains the genesis block is the only block known and the chain is followed from it.
public struct Checkpoints: Sendable {
    /// Where they come from: the package, its version, the file and the file's sha256; empty
    /// for ``none``.
    public let source: String
    /// Entry `i`: the hash (as displayed) of block `2016 * (i + 1) - 1`.
    public let hashes: [String]
    /// Entry `i`: the bits of the blocks of period `i + 1`; nil where Electrum checks no
    /// difficulty (the test networks).
    public let bits: [UInt32]?

    /// Checkpoints from their text: hashes one per line, bits as hex separated by spaces.
    init(source: String, hashes: String, bits: String?) {
        self.source = source
        self.hashes = hashes.split(whereSeparator: \.isWhitespace).map(String.init)
        self.bits = bits.map { $0.split(whereSeparator: \.isWhitespace).compactMap { UInt32($0, radix: 16) } }
    }

    /// None: the genesis block is the only block known (testnet4, signet, regtest).
    public static let none = Checkpoints(source: "", hashes: "", bits: nil)

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

/// What a wallet knows about a chain before it asks a server anything: its genesis block (the
/// chain's name: an Electrum server's `server.features` gives it), its easiest proof of work,
/// how its difficulty may change, and its checkpoints. A header is believed only when it meets
/// these (SPEC.md section 21; Electrum checks the same).
public struct ChainParameters: Sendable {
    /// How the chain's difficulty moves, and so what a header's bits must be.
    public enum Difficulty: Sendable, Hashable {
        /// Every 2016 blocks by the time the last period took (Bitcoin Core's
        /// `CalculateNextWorkRequired`): each header's bits are exactly the period's.
        case retargets
        /// Checked no further than the proof-of-work limit: the test networks allow
        /// minimum-difficulty blocks (and signet's blocks are signed), which Electrum leaves
        /// unchecked too.
        case atMostTheLimit
        /// Always the limit (regtest never retargets).
        case fixed
    }

    /// `bitcoin`, `testnet3`, `testnet4`, `signet` or `regtest`.
    public let name: String
    /// The network whose addresses and keys it carries.
    public let network: Network
    /// The genesis block's hash, as displayed.
    public let genesisHash: String
    /// The easiest target a header may carry, compact.
    public let powLimitBits: UInt32
    public let difficulty: Difficulty
    public let checkpoints: Checkpoints

    /// Two weeks: the time a difficulty period is meant to take.
    public static let targetTimespan: Int64 = 14 * 24 * 60 * 60

    /// Every chain walletwatch knows. Genesis hashes as Bitcoin Core's chainparams give them
    /// (testnet4's header is not built here: its hash, BIP94's, is taken as given). Bitcoin and
    /// testnet3 carry Electrum 4.3.4's checkpoints (Debian 12's python3-electrum); that version
    /// has none for testnet4 or signet, so their chains are followed from the genesis block, as
    /// regtest's: every header from block 1 to the tip is fetched once, checked and kept.
    public static let all: [ChainParameters] = [
        ChainParameters(name: "bitcoin", network: .bitcoin, genesisHash: Network.bitcoin.genesisHeader.hashHex, powLimitBits: 0x1d00_ffff,
                        difficulty: .retargets, checkpoints: .bitcoin),
        ChainParameters(name: "testnet3", network: .testnet, genesisHash: Network.testnet.genesisHeader.hashHex, powLimitBits: 0x1d00_ffff,
                        difficulty: .atMostTheLimit, checkpoints: .testnet3),
        ChainParameters(name: "testnet4", network: .testnet, genesisHash: "00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043",
                        powLimitBits: 0x1d00_ffff, difficulty: .atMostTheLimit, checkpoints: .none),
        ChainParameters(name: "signet", network: .signet, genesisHash: Network.signet.genesisHeader.hashHex, powLimitBits: 0x1e03_77ae,
                        difficulty: .atMostTheLimit, checkpoints: .none),
        ChainParameters(name: "regtest", network: .regtest, genesisHash: Network.regtest.genesisHeader.hashHex, powLimitBits: 0x207f_ffff,
                        difficulty: .fixed, checkpoints: .none),
    ]

    /// The chain whose genesis block has this hash (any case).
    public static func chain(genesisHash: String) -> ChainParameters? {
        all.first { $0.genesisHash == genesisHash.lowercased() }
    }

    /// The chains whose addresses are `network`'s (testnet: testnet3 and testnet4).
    public static func chains(of network: Network) -> [ChainParameters] {
        all.filter { $0.network == network }
    }

    /// The block a wallet trusts without a header: the last checkpoint (Bitcoin: block
    /// 747,935), else the genesis block (testnet4, signet, regtest). Past it the chain is
    /// followed header by header.
    public var base: (height: Int64, hash: String) {
        if let last = checkpoints.lastHeight, let hash = checkpoints.hashes.last { return (last, hash) }
        return (0, genesisHash)
    }

    /// The bits every header of the period holding `height` must carry, where the chain says
    /// without the headers before it: the limit on regtest and in the first period, a
    /// checkpoint's target after it. Nil where it must be computed from the last period
    /// (``retargetedBits(first:last:)``) or is not checked (the test networks).
    public func knownBits(at height: Int64) -> UInt32? {
        switch difficulty {
        case .fixed: return powLimitBits
        case .atMostTheLimit: return nil
        case .retargets:
            let period = Int(height / Checkpoints.period)
            if period == 0 { return powLimitBits }
            guard let bits = checkpoints.bits, period - 1 < bits.count else { return nil }
            return bits[period - 1]
        }
    }

    /// The bits of the period after the one from `first` to `last` (its first and last
    /// headers): Bitcoin Core's `CalculateNextWorkRequired`, the time the period took kept
    /// within a quarter and four times two weeks, the target never easier than the limit.
    public func retargetedBits(first: BlockHeader, last: BlockHeader) -> UInt32 {
        let limit = Target(bits: powLimitBits)!
        let taken = min(max(Int64(last.time) - Int64(first.time), Self.targetTimespan / 4), Self.targetTimespan * 4)
        guard let current = Target(bits: last.bits), let next = current.scaled(by: UInt32(taken), dividedBy: UInt32(Self.targetTimespan)) else {
            return powLimitBits
        }
        return (next > limit ? limit : next).bits
    }

    /// Checks `headers`, consecutive from `height`, after the block whose hash (internal byte
    /// order) is `previous`: each links to the one before, meets the proof of work of its
    /// bits, carries bits no easier than the chain's limit and, where the chain fixes them,
    /// exactly `bits(height)`'s, and is dated at most `latestTime` (the clock plus two hours,
    /// as Bitcoin's own rule). The first failure is thrown, naming the block.
    public func verify(_ headers: [BlockHeader], from height: Int64, after previous: [UInt8], latestTime: Int64,
                       bits expected: (Int64) -> UInt32?) throws(HeaderChainError) {
        let limit = Target(bits: powLimitBits)!
        var previous = previous
        for (offset, header) in headers.enumerated() {
            let at = height + Int64(offset)
            guard header.previousHash == previous else {
                throw HeaderChainError(height: at, "does not follow block \(at - 1) (it names \(header.previousHashHex) as its parent)")
            }
            guard let target = Target(bits: header.bits), target <= limit else {
                throw HeaderChainError(height: at, "carries bits \(Self.hex(header.bits)), an easier target than \(name)'s limit \(Self.hex(powLimitBits))")
            }
            if let bits = expected(at), bits != header.bits {
                throw HeaderChainError(height: at, "carries bits \(Self.hex(header.bits)) where \(name)'s difficulty is \(Self.hex(bits))")
            }
            let hash = header.hash
            guard Target(hash: hash) <= target else {
                throw HeaderChainError(height: at, "does not meet its proof of work (its hash \(header.hashHex) is above its target)")
            }
            guard Int64(header.time) <= latestTime else {
                throw HeaderChainError(height: at, "is dated \(Self.utc(Int64(header.time))), more than two hours past the clock (\(Self.utc(latestTime - 7200)))")
            }
            previous = hash
        }
    }

    /// `seconds` since 1970 as `2106-02-07T06:28:15Z` (Howard Hinnant's civil-from-days).
    static func utc(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    private static func hex(_ bits: UInt32) -> String {
        let digits = String(bits, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// A header that is not on the chain it claims, and why.
public struct HeaderChainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The block's height.
    public let height: Int64
    /// What is wrong with it, as the end of a sentence about it.
    public let problem: String

    public init(height: Int64, _ problem: String) {
        self.height = height
        self.problem = problem
    }

    public var description: String { "the header of block \(height) \(problem)" }
}

/// The proof that a transaction is in a block (SPV, as Electrum does it): its position among
/// the block's transactions and the hashes it is paired with on the way up, deepest first, as
/// an Electrum server's `blockchain.transaction.get_merkle` lists them. Hashing the txid up
/// the branch must give the Merkle root in the block's header.
public struct MerkleBranch: Sendable, Hashable {
    /// The transaction's 0-based position in its block.
    public let position: Int
    /// The paired hashes in internal byte order (as hashed), deepest first.
    public let hashes: [[UInt8]]

    /// A branch of these hashes (internal byte order) for the transaction at `position`.
    public init(position: Int, hashes: [[UInt8]]) {
        self.position = position
        self.hashes = hashes
    }

    /// The Merkle root the branch leads to from `txid` (internal byte order), refusing what
    /// only a forged proof gives (Electrum's verifier refuses the same):
    /// - a position that is negative, or does not fit the branch's depth;
    /// - a hash that is not 32 bytes;
    /// - a pair whose 64 bytes read as a transaction (CVE-2017-12842: a forged leaf hidden in
    ///   an inner node of a real tree);
    /// - a right child paired with a copy of itself (CVE-2012-2459: leaves that exist only
    ///   because Bitcoin pairs an odd level's last hash with itself).
    public func root(from txid: [UInt8]) throws(MerkleBranchError) -> [UInt8] {
        guard txid.count == 32 else { throw MerkleBranchError("a txid is 32 bytes, not \(txid.count)") }
        guard position >= 0 else { throw MerkleBranchError("the position \(position) is negative") }
        var node = txid
        var index = position
        for (depth, sibling) in hashes.enumerated() {
            guard sibling.count == 32 else { throw MerkleBranchError("hash \(depth) of the branch is \(sibling.count) bytes, not 32") }
            let isRightChild = index & 1 == 1
            if isRightChild && sibling == node {
                throw MerkleBranchError("at depth \(depth) it pairs a hash with a copy of itself from the left: a leaf that only Bitcoin's padding makes (CVE-2012-2459)")
            }
            let pair = isRightChild ? sibling + node : node + sibling
            if (try? RawTransaction(parsing: pair)) != nil {
                throw MerkleBranchError("at depth \(depth) its 64 bytes read as a transaction: a leaf forged inside the tree (CVE-2017-12842)")
            }
            node = Hashes.doubleSHA256(pair)
            index >>= 1
        }
        guard index == 0 else { throw MerkleBranchError("the position \(position) does not fit a branch of \(hashes.count) hashes") }
        return node
    }
}

/// Why a Merkle branch proves nothing.
public struct MerkleBranchError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

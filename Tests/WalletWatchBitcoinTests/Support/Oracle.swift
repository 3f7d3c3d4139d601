import Foundation
import TestSupport
import WalletWatchBitcoin

/// Other people's code, run on the inputs the SPV tests give walletwatch's (the programs are in
/// `Oracles/`; scripts/setup installs what they run on):
/// - ``electrum(_:)``: Electrum 4.3.4's own checks, as Debian 12 packages it (python3-electrum,
///   under Debian's /usr/bin/python3);
/// - ``realBlocks()``: the real mainnet blocks of PyPI's bitcoinlib 0.7.10 wheel, read by
///   bitcoinlib and by ElectrumX 2.0.0 (under `.build/python-tools`).
enum Oracle {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles")
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where Debian's python3-electrum puts Electrum.
    static let electrumFolder = "/usr/lib/python3/dist-packages/electrum"

    /// Electrum's answer to each of `requests` (electrum_oracle.py lists them).
    static func electrum(_ requests: [[String: Any]]) async throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: electrumFolder + "/blockchain.py") else {
            throw OracleError("Debian's Electrum is not installed (\(electrumFolder)): run scripts/setup, which installs python3-electrum")
        }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
        let home = TemporaryDirectory("walletwatch-electrum")
        let result = try await ProcessRunner.run("/usr/bin/python3", [folder.appendingPathComponent("electrum_oracle.py").path],
                                                 environment: ["PATH": "/usr/bin:/bin", "HOME": home.path], currentDirectory: home.path,
                                                 input: input)
        guard result.status == 0, let answers = result.json as? [[String: Any]], answers.count == requests.count else {
            throw OracleError("electrum_oracle.py failed (exit \(result.status)): \(result.stderr.suffix(2000))")
        }
        return answers
    }

    /// One of bitcoinlib's blocks, as bitcoinlib and ElectrumX read it.
    struct RealBlock: Sendable {
        /// The file in bitcoinlib's wheel (`tests/block250000.pickle`).
        var file: String
        var height: Int64
        /// bitcoinlib's: the block hash, the Merkle root and bits from its header, its proof of work.
        var hash: String
        var merkleRoot: String
        var bits: UInt32
        var meetsItsProofOfWork: Bool
        var header: BlockHeader
        /// ElectrumX's: every txid, coinbase first, as displayed.
        var txids: [String]
        /// ElectrumX's Merkle branches (as displayed, deepest first) of a few positions, and the root each gives.
        var branches: [(position: Int, hashes: [String], root: String)]
    }

    /// bitcoinlib's blocks, read once per test run (parsing them takes seconds).
    static func realBlocks() async throws -> [RealBlock] {
        try await loadedBlocks.value
    }

    private static let loadedBlocks = Task { () throws -> [RealBlock] in
        let python = packageRoot.appendingPathComponent(".build/python-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw OracleError("\(python) is missing: run scripts/setup (it installs bitcoinlib 0.7.10 and e-x 2.0.0 into .build/python-tools)")
        }
        // bitcoinlib writes its settings and database under $HOME/.bitcoinlib: a folder of the test's.
        let home = TemporaryDirectory("walletwatch-bitcoinlib")
        let result = try await ProcessRunner.run(python, [folder.appendingPathComponent("real_blocks.py").path],
                                                 environment: ["PATH": "/usr/bin:/bin", "HOME": home.path], currentDirectory: home.path)
        guard result.status == 0, let object = result.object, let blocks = object["blocks"] as? [[String: Any]] else {
            throw OracleError("real_blocks.py failed (exit \(result.status)): \(result.stderr.suffix(2000))")
        }
        guard object["bitcoinlib"] as? String == "0.7.10", object["e-x"] as? String == "2.0.0" else {
            throw OracleError("real_blocks.py ran bitcoinlib \(object["bitcoinlib"] ?? "?") and e-x \(object["e-x"] ?? "?"), not 0.7.10 and 2.0.0: run scripts/setup")
        }
        return try blocks.map { block in
            guard let file = block["file"] as? String, let height = block["height"] as? Int, let hash = block["hash"] as? String,
                  let root = block["merkle_root"] as? String, let bits = block["bits"] as? Int, let work = block["pow"] as? Bool,
                  let headerHex = block["header"] as? String, let header = Hex.decode(headerHex), let txids = block["txids"] as? [String],
                  let proofs = block["electrumx"] as? [[String: Any]] else {
                throw OracleError("real_blocks.py gave an unreadable block: \(block.keys.sorted())")
            }
            return RealBlock(
                file: file, height: Int64(height), hash: hash, merkleRoot: root, bits: UInt32(bits), meetsItsProofOfWork: work,
                header: try BlockHeader(parsing: header), txids: txids,
                branches: try proofs.map { proof in
                    guard let position = proof["position"] as? Int, let hashes = proof["branch"] as? [String], let root = proof["root"] as? String else {
                        throw OracleError("real_blocks.py gave an unreadable branch: \(proof.keys.sorted())")
                    }
                    return (position, hashes, root)
                })
        }
    }
}

/// An oracle that could not be run, and what to do about it.
struct OracleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A hash as displayed (reversed hex) in internal byte order, and back.
func internalOrder(_ displayed: String) -> [UInt8] { Array(bytes(displayed).reversed()) }
func displayed(_ internalOrder: [UInt8]) -> String { hex(internalOrder.reversed()) }

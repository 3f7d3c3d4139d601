import Foundation
import Testing
import TestSupport

extension StressTests {
    @Suite("tag import of a 200 MB file")
    struct TagImport {
        /// One BIP-329 `tx` record of the size wallets write (Sparrow adds `origin`).
        static func line(_ index: Int) -> String {
            let txid = String(repeating: "0", count: 48) + String(format: "%016llx", UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            return #"{"type":"tx","ref":"\#(txid)","label":"label-\#(index % 200)","origin":"wpkh([d34db33f/84'/0'/0'])"}"# + "\n"
        }

        /// Writes `bytes` worth of records to `path` (a block at a time) and returns how many.
        static func writeLabels(_ path: String, bytes: Int) throws -> Int {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            var written = 0, count = 0
            var block = ""
            while written < bytes {
                let text = line(count)
                block += text
                written += text.utf8.count
                count += 1
                if block.utf8.count >= 4 << 20 {
                    try handle.write(contentsOf: Data(block.utf8))
                    block = ""
                }
            }
            try handle.write(contentsOf: Data(block.utf8))
            try handle.close()
            return count
        }

        /// The file is read a line at a time and written in one transaction: memory stays that of
        /// a small command whatever the file's size (the review measured 806 MB for this file,
        /// and 353 s). The time is printed, not asserted: it depends on the machine and the build.
        @Test("a 200 MB BIP-329 file imports with bounded memory; a 50 MB line is refused by its number")
        func largeFile() async throws {
            let folder = TemporaryDirectory("walletwatch-tag-stress")
            folder.write("walletwatch.toml", "database = \"walletwatch.sqlite\"\n")
            let cli = CLIRunner(folder: folder)
            #expect(try await cli.run("tag", "list").status == 0)
            let path = folder.file("labels.jsonl")
            let records = try Self.writeLabels(path, bytes: 200_000_000)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0

            let started = ContinuousClock.now
            let (result, peakKiB) = try await cli.runMeasuringPeakMemory(["tag", "import", path, "--json"])
            let elapsed = ContinuousClock.now - started
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.object?["tx_records"] as? Int == records && result.object?["assigned"] as? Int == records)
            #expect(result.object?["created_tag_count"] as? Int == 200)
            print("tag import: \(size) bytes, \(records) records in \(elapsed), peak memory \(peakKiB / 1024) MiB")
            #expect(peakKiB < 200 * 1024, "peak memory \(peakKiB) KiB for a \(size)-byte file")
            #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM tag_assignments") == "\(records)")

            // One line of 50 MB between two good ones: refused by its number, nothing imported.
            let long = folder.file("long.jsonl")
            _ = FileManager.default.createFile(atPath: long, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: long))
            try handle.write(contentsOf: Data((Self.line(records + 1) + #"{"type":"tx","ref":"abc","label":""#).utf8))
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<50 { try handle.write(contentsOf: chunk) }
            try handle.write(contentsOf: Data(("\"}\n" + Self.line(records + 2)).utf8))
            try handle.close()
            let lineStarted = ContinuousClock.now
            let (refused, linePeakKiB) = try await cli.runMeasuringPeakMemory(["tag", "import", long])
            let lineElapsed = ContinuousClock.now - lineStarted
            #expect(refused.status == 65 && refused.stderr.contains("(line 2: longer than 1048576 bytes"), "\(refused.stderr)")
            print("tag import: a 50 MiB line refused in \(lineElapsed), peak memory \(linePeakKiB / 1024) MiB")
            #expect(linePeakKiB < 200 * 1024)
            #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM tag_assignments") == "\(records)")
        }
    }
}

import Foundation

/// A vector file copied into `Fixtures/` (see its PROVENANCE.md), found beside this source file
/// so that the tests run from any working directory.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The whole text of `name` (a path inside `Fixtures/`).
    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The file's JSON.
    static func json(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name)))
    }
}

/// Bytes from hex in a vector; a malformed vector fails the test that reads it.
func bytes(_ hex: some StringProtocol) -> [UInt8] {
    var result = [UInt8]()
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        guard let byte = UInt8(hex[index..<next], radix: 16) else { fatalError("bad hex in a vector: \(hex)") }
        result.append(byte)
        index = next
    }
    return result
}

/// Lowercase hex of bytes.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// The text between the first `start` at or after `from` and the next `end`.
func section(of text: String, from start: String, to end: String) -> String {
    guard let lower = text.range(of: start) else { return "" }
    let rest = text[lower.upperBound...]
    guard let upper = rest.range(of: end) else { return String(rest) }
    return String(rest[..<upper.lowerBound])
}

/// Every `<tt>...</tt>` span of a line, in order (the mediawiki BIPs set vectors in them).
func teletype(_ line: some StringProtocol) -> [String] {
    var spans = [String]()
    var rest = Substring(line)
    while let open = rest.range(of: "<tt>"), let close = rest.range(of: "</tt>", range: open.upperBound..<rest.endIndex) {
        spans.append(String(rest[open.upperBound..<close.lowerBound]))
        rest = rest[close.upperBound...]
    }
    return spans
}

import WalletWatchCore

/// What `tag import` read from a label file and what it did with it. The lines it could not
/// use are listed up to ``listedLines`` of each kind and counted beyond, so that the report
/// stays small whatever the file.
public struct LabelImportReport: Sendable {
    /// At most this many invalid lines, and as many cut tag names, are listed.
    public static let listedLines = 1_000

    /// What the database took.
    public var result = LabelImportResult()
    /// `tx` records read, labelled or not.
    public var txRecords = 0
    /// `tx` records without a label, left as they were.
    public var unlabelled = 0
    /// Records of other types, skipped, by type.
    public var skippedTypes: [String: Int] = [:]
    /// The first tag names cut to ``Name/maximumLength`` characters, with their line and as written.
    public var truncated: [(line: Int, label: String)] = []
    /// How many tag names were cut.
    public var truncatedCount = 0
    /// The first lines that are not valid records, with their number and why.
    public var invalid: [(line: Int, reason: String)] = []
    /// How many lines are not valid records.
    public var invalidCount = 0

    /// Records of other types, skipped.
    public var otherTypes: Int { skippedTypes.values.reduce(0, +) }

    mutating func noteInvalid(line: Int, _ reason: String) {
        invalidCount += 1
        if invalid.count < Self.listedLines { invalid.append((line, reason)) }
    }

    mutating func noteCut(line: Int, _ labels: [String]) {
        truncatedCount += labels.count
        for label in labels where truncated.count < Self.listedLines { truncated.append((line, label)) }
    }

    /// The refusal of a file with invalid lines: how many, the first five by number and why.
    func refusal(file: String) -> Refusal {
        let lines = invalid.prefix(5).map { "line \($0.line): \($0.reason)" }.joined(separator: "; ")
        return Refusal("\(invalidCount) malformed line(s) in \(file), nothing imported (\(lines)\(invalidCount > 5 ? "; ..." : "")); fix them or pass --skip-invalid")
    }
}

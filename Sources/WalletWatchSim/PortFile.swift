import Foundation

/// The files in which `walletwatch-sim --port-file` publishes its port (and `--endpoints-file` a
/// real chain's endpoints), written so that a reader polling for one never sees it partial: a
/// temporary file in the same folder, renamed.
public enum PortFile {
    /// Writes `port` followed by a newline to `path`, atomically.
    public static func write(_ port: Int, to path: String) throws {
        try write(Data("\(port)\n".utf8), to: path)
    }

    /// Writes `value` as pretty JSON (sorted keys) to `path`, atomically: the endpoints file.
    public static func write(json value: some Encodable, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try write(try encoder.encode(value) + Data("\n".utf8), to: path)
    }

    private static func write(_ contents: Data, to path: String) throws {
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: temporary, contents: contents) else {
            throw SimulatorError(.invalid, "cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw SimulatorError(.invalid, "cannot rename \(temporary) to \(path): \(reason)")
        }
    }

    /// The port in a port file, or nil when it is absent or not a port number yet.
    public static func read(_ path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8),
              let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), (1...65535).contains(port)
        else { return nil }
        return port
    }
}

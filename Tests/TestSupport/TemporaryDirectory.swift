import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder's absolute path.
    public let path: String

    public init(_ label: String = "walletwatch-test") {
        let base = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    /// The absolute path of `name` inside the folder.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let file = file(name)
        try! text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

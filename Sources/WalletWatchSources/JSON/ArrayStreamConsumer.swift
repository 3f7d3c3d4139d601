import Foundation
import WalletWatchNet

/// Receives a streamed JSON array body and decodes each element as soon as it is complete.
/// Used on one transfer thread at a time; the lock makes ``finish()`` safe to call afterwards
/// from another thread.
final class ArrayStreamConsumer<Element>: HTTPBodyConsumer, @unchecked Sendable {
    private let lock = NSLock()
    private var streamer = JSONArrayStreamer()
    private let decode: (inout JSONReader) throws -> Element
    private let onElement: (Element) throws -> Void

    init(decode: @escaping (inout JSONReader) throws -> Element, onElement: @escaping (Element) throws -> Void) {
        self.decode = decode
        self.onElement = onElement
    }

    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        lock.lock()
        defer { lock.unlock() }
        try streamer.feed(chunk) { bytes, position in
            do {
                let element = try JSONReader.read(bytes, decode)
                try onElement(element)
            } catch let error as JSONReadError {
                throw JSONReadError(path: "[\(position)]" + (error.path.isEmpty ? "" : (error.path.hasPrefix("[") ? "" : ".") + error.path),
                                    problem: error.problem)
            }
        }
    }

    /// Throws when the array was cut short.
    func finish() throws {
        lock.lock()
        defer { lock.unlock() }
        try streamer.finish()
    }
}

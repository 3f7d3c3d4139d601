import Crypto
import Foundation
import Synchronization
import WalletWatchCore
import WalletWatchNet

/// A response body kept in a file while it arrives, with its SHA-256 and size, so that the
/// download never waits for the database and the database never waits for the network
/// (docs/ARCHITECTURE.md, "One ingest").
///
/// The file lives beside the database (not in /tmp, which is often memory) and has no name:
/// it is unlinked as soon as it is created, so it is gone when the spool is released or the
/// process dies, whatever happens. It is written by the transfer's thread and read afterwards
/// by the pass; the mutex orders the two.
final class BodySpool: HTTPBodyConsumer {
    private struct State {
        var hasher = SHA256()
        var bytes = 0
    }

    private let descriptor: Int32
    private let folder: String
    private let state = Mutex(State())

    /// An empty spool in `folder`.
    init(folder: String) throws(SpoolError) {
        var template = Array((folder + "/.walletwatch-download-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SpoolError(folder: folder, reason: String(cString: strerror(errno))) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        self.descriptor = descriptor
        self.folder = folder
    }

    deinit { close(descriptor) }

    /// Appends the next bytes of the body.
    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            var written = 0
            while written < chunk.count {
                let result = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw SpoolError(folder: folder, reason: String(cString: strerror(errno)))
                }
                written += result
            }
            state.hasher.update(bufferPointer: chunk)
            state.bytes += chunk.count
        }
    }

    /// The body's SHA-256 (hex) and size; call once the transfer is over.
    func finish() -> (digest: String, bytes: Int) {
        state.withLock { state in
            (state.hasher.finalize().map { String(format: "%02x", $0) }.joined(), state.bytes)
        }
    }

    /// Reads up to `buffer.count` bytes of the body from `offset` into `buffer`; 0 at its end.
    func read(at offset: Int, into buffer: inout [UInt8]) throws(SpoolError) -> Int {
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard count >= 0 else { throw SpoolError(folder: folder, reason: String(cString: strerror(errno))) }
        return count
    }
}

/// The folder where a download is kept could not take it (full, read-only, missing).
struct SpoolError: Classified {
    let folder: String
    let reason: String
    var description: String { "cannot keep the download in \(folder): \(reason)" }
    var kind: ErrorKind { .runtime }
}

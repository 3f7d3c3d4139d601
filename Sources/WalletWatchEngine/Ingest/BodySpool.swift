import Foundation
import Synchronization
import WalletWatchCore
import WalletWatchNet
import WalletWatchStore

/// A response body kept in a file while it arrives, with its digest (``BodyHasher``, XXH3) and
/// size, so that the download never waits for the database and the database never waits for
/// the network (docs/ARCHITECTURE.md, "One ingest").
///
/// Told the head digest of the last body (the first ``BodyDigest/headBytes`` of it), the spool
/// keeps nothing when the new body starts the same way: barkd sends its history newest first,
/// so a new or changed movement almost always changes the head, and a history that starts
/// like the last one is most likely the same history. Only its digest is computed then; if the
/// whole body turns out different after all (``Spooled/isKept`` false, digest changed), the
/// caller fetches it again into a spool that keeps everything.
///
/// The file lives beside the database (not in /tmp, which is often memory) and has no name:
/// it is unlinked as soon as it is created, so it is gone when the spool is released or the
/// process dies, whatever happens. It is written by the transfer's thread and read afterwards
/// by the pass; the mutex orders the two.
final class BodySpool: HTTPBodyConsumer {
    private struct State {
        let hasher = BodyHasher()
        var head: [UInt8] = []
        var headDigest: String?
        var bytes = 0
        /// Whether the bytes go into the file: decided once the head is complete.
        var keeps: Bool?
    }

    private let descriptor: Int32
    private let folder: String
    private let skipHead: String?
    private let state = Mutex(State())

    /// An empty spool in `folder`. With `skipHead`, a body whose head has that digest is not kept.
    init(folder: String, skipHead: String? = nil) throws {
        var template = Array((folder + "/.walletwatch-download-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SpoolError(folder: folder, reason: String(cString: strerror(errno))) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        self.descriptor = descriptor
        self.folder = folder
        self.skipHead = skipHead
    }

    deinit { close(descriptor) }

    /// Takes the next bytes of the body.
    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            state.hasher.update(chunk)
            state.bytes += chunk.count
            if state.keeps == nil {
                let missing = BodyDigest.headBytes - state.head.count
                let part = UnsafeRawBufferPointer(rebasing: chunk.prefix(missing))
                state.head.append(contentsOf: part)
                guard state.head.count == BodyDigest.headBytes else { return }
                try decideOnHead(&state)
                if state.keeps == true { try append(UnsafeRawBufferPointer(rebasing: chunk.dropFirst(part.count))) }
            } else if state.keeps == true {
                try append(chunk)
            }
        }
    }

    /// The body's digests and size, and whether its bytes were kept; call once the transfer is over.
    func finish() throws -> Spooled {
        try state.withLock { state in
            if state.keeps == nil { try decideOnHead(&state) }
            return Spooled(digest: BodyDigest(whole: state.hasher.named(), head: state.headDigest!),
                           bytes: state.bytes, isKept: state.keeps!)
        }
    }

    /// Reads up to `buffer.count` bytes of a kept body from `offset` into `buffer`; 0 at its end.
    func read(at offset: Int, into buffer: inout [UInt8]) throws -> Int {
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard count >= 0 else { throw SpoolError(folder: folder, reason: String(cString: strerror(errno))) }
        return count
    }

    /// The head is complete (or so is the body): keep the bytes unless the head is the last body's.
    private func decideOnHead(_ state: inout State) throws {
        let digest = state.head.withUnsafeBytes { BodyHasher.named($0) }
        state.headDigest = digest
        state.keeps = digest != skipHead
        if state.keeps == true { try state.head.withUnsafeBytes { try append($0) } }
        state.head = []
    }

    private func append(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw SpoolError(folder: folder, reason: String(cString: strerror(errno)))
            }
            written += result
        }
    }
}

/// A body that went through a ``BodySpool``.
struct Spooled: Sendable {
    let digest: BodyDigest
    let bytes: Int
    /// False when the head was the last body's and the bytes were only hashed.
    let isKept: Bool
}

/// The folder where a download is kept could not take it (full, read-only, missing).
struct SpoolError: Classified {
    let folder: String
    let reason: String
    var description: String { "cannot keep the download in \(folder): \(reason)" }
    var kind: ErrorKind { .runtime }
}

import Foundation
import Synchronization

/// One of the process's standard streams, written with write(2) and every result checked.
///
/// Swift's `print` and stdio drop a failed write without a word, and `FileHandle.write` stops
/// the process with a trap, so `export csv > months.csv` on a full disk either claimed success
/// over a truncated file or died. Here a failed write (a full disk, `/dev/full`, a reader that
/// closed its pipe) is kept as this stream's failure: on stdout it ends the command at once
/// (nobody will read the rest), on stderr the command goes on; either way the process exits 1
/// (see ``Output/finish(_:)``).
final class StandardStream: Sendable {
    /// The command's data: buffered in blocks (by line on a terminal), flushed before the
    /// process exits.
    static let output = StandardStream(descriptor: STDOUT_FILENO, name: "the output", buffered: true)
    /// Warnings, errors and the daemon's log: written at once.
    static let error = StandardStream(descriptor: STDERR_FILENO, name: "the error output", buffered: false)

    /// How much output gathers before it is written: few system calls for a big export, little memory.
    static let blockSize = 64 << 10

    let descriptor: Int32
    /// How an error names the stream.
    let name: String
    private let state: Mutex<State>

    private struct State {
        var pending: [UInt8] = []
        /// The errno of the first write that failed; later output is dropped.
        var failure: Int32?
        /// Whether a line end flushes (a terminal shows each line as it is printed).
        let byLine: Bool
        let buffered: Bool
    }

    private init(descriptor: Int32, name: String, buffered: Bool) {
        self.descriptor = descriptor
        self.name = name
        state = Mutex(State(byLine: isatty(descriptor) == 1, buffered: buffered))
    }

    /// The errno of the first failed write, if any.
    var failure: Int32? { state.withLock { $0.failure } }

    /// Appends `text`, writing it out when the block is full, at a line end on a terminal, or
    /// at once when `now` (a frame of `watch`, a control sequence) or the stream is unbuffered.
    /// Returns false when the stream has failed.
    @discardableResult
    func write(_ text: String, now: Bool = false) -> Bool {
        state.withLock { state in
            guard state.failure == nil else { return false }
            state.pending.append(contentsOf: text.utf8)
            if now || !state.buffered || state.pending.count >= Self.blockSize || (state.byLine && text.utf8.last == UInt8(ascii: "\n")) {
                drain(&state)
            }
            return state.failure == nil
        }
    }

    /// Writes out whatever is pending. Returns false when the stream has failed.
    @discardableResult
    func flush() -> Bool {
        state.withLock { state in
            drain(&state)
            return state.failure == nil
        }
    }

    /// Writes every pending byte; the first error is kept and what could not be written is dropped.
    private func drain(_ state: inout State) {
        guard state.failure == nil else {
            state.pending.removeAll()
            return
        }
        let failure = state.pending.withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) }
        state.pending.removeAll(keepingCapacity: state.pending.count <= Self.blockSize)
        state.failure = failure
    }

    /// `could not write the output: No space left on device`: what failed, for the `error:` line.
    var failureDescription: String? {
        failure.map { "could not write \(name): \(String(cString: strerror($0)))" }
    }
}

/// A ``StandardStream`` for swift-log's `StreamLogHandler`, so that the daemon's log lines are
/// written, and their failures kept, like everything else the command prints.
struct StandardStreamText: TextOutputStream, Sendable {
    let stream: StandardStream

    mutating func write(_ string: String) {
        stream.write(string)
    }
}

import Foundation

/// Signal handling for the long-running commands.
enum Signals {
    /// Unblocks SIGINT, SIGTERM, SIGHUP and SIGWINCH in this thread (and the threads it starts):
    /// a parent may have started walletwatch with them blocked, and a daemon that cannot hear
    /// SIGTERM cannot shut down gracefully.
    static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

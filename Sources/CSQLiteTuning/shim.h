#ifndef WALLETWATCH_SQLITE_TUNING_H
#define WALLETWATCH_SQLITE_TUNING_H
#include <sqlite3.h>

// sqlite3_config is variadic and cannot be called from Swift: these wrappers can.

/// Stops SQLite from keeping memory statistics, which it guards with a global mutex on every
/// allocation. Must run before SQLite is initialized (before the first connection opens);
/// returns SQLITE_MISUSE when it is too late.
static inline int walletwatch_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif

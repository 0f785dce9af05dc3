#include "history/SqliteFaultHook.hpp"

#include "core/PrintableText.hpp"

#ifdef BWS_TEST_HOOKS
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

namespace bws::history {
namespace {

// A shim over the default VFS: every file SQLite opens through it is the
// real file behind a FaultFile header whose methods count the operations
// that change a file and forward all calls.
struct FaultFile {
  sqlite3_file base;
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};

sqlite3_vfs* g_real = nullptr;
sqlite3_vfs g_vfs;
sqlite3_io_methods g_methods;
long g_operations_left = 0;
std::string g_armed;  // the variable's value the counter was set from

void before_change() {
  if (--g_operations_left <= 0) ::_exit(kSqliteFaultExitCode);
}

sqlite3_file* real_of(sqlite3_file* f) { return reinterpret_cast<FaultFile*>(f)->real(); }

int fault_close(sqlite3_file* f) { return real_of(f)->pMethods->xClose(real_of(f)); }
int fault_read(sqlite3_file* f, void* buf, int n, sqlite3_int64 at) {
  return real_of(f)->pMethods->xRead(real_of(f), buf, n, at);
}
int fault_write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 at) {
  before_change();
  return real_of(f)->pMethods->xWrite(real_of(f), buf, n, at);
}
int fault_truncate(sqlite3_file* f, sqlite3_int64 size) {
  before_change();
  return real_of(f)->pMethods->xTruncate(real_of(f), size);
}
int fault_sync(sqlite3_file* f, int flags) {
  before_change();
  return real_of(f)->pMethods->xSync(real_of(f), flags);
}
int fault_file_size(sqlite3_file* f, sqlite3_int64* size) { return real_of(f)->pMethods->xFileSize(real_of(f), size); }
int fault_lock(sqlite3_file* f, int level) { return real_of(f)->pMethods->xLock(real_of(f), level); }
int fault_unlock(sqlite3_file* f, int level) { return real_of(f)->pMethods->xUnlock(real_of(f), level); }
int fault_check_reserved(sqlite3_file* f, int* out) {
  return real_of(f)->pMethods->xCheckReservedLock(real_of(f), out);
}
int fault_file_control(sqlite3_file* f, int op, void* arg) {
  return real_of(f)->pMethods->xFileControl(real_of(f), op, arg);
}
int fault_sector_size(sqlite3_file* f) { return real_of(f)->pMethods->xSectorSize(real_of(f)); }
int fault_device(sqlite3_file* f) { return real_of(f)->pMethods->xDeviceCharacteristics(real_of(f)); }

int fault_open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  if (flags & SQLITE_OPEN_CREATE) before_change();
  auto* shim = reinterpret_cast<FaultFile*>(file);
  shim->base.pMethods = nullptr;
  const int rc = g_real->xOpen(g_real, name, shim->real(), flags, out_flags);
  if (shim->real()->pMethods) shim->base.pMethods = &g_methods;
  return rc;
}

int fault_delete(sqlite3_vfs*, const char* name, int sync_dir) {
  before_change();
  return g_real->xDelete(g_real, name, sync_dir);
}

void register_vfs() {
  g_real = sqlite3_vfs_find(nullptr);
  g_vfs = *g_real;
  g_vfs.pNext = nullptr;
  g_vfs.zName = "bws-fault";
  g_vfs.szOsFile = static_cast<int>(sizeof(FaultFile)) + g_real->szOsFile;
  g_vfs.xOpen = fault_open;
  g_vfs.xDelete = fault_delete;
  // Version 1 methods: no shared memory (no WAL) and no memory mapping, so
  // every change goes through xWrite.
  std::memset(&g_methods, 0, sizeof g_methods);
  g_methods.iVersion = 1;
  g_methods.xClose = fault_close;
  g_methods.xRead = fault_read;
  g_methods.xWrite = fault_write;
  g_methods.xTruncate = fault_truncate;
  g_methods.xSync = fault_sync;
  g_methods.xFileSize = fault_file_size;
  g_methods.xLock = fault_lock;
  g_methods.xUnlock = fault_unlock;
  g_methods.xCheckReservedLock = fault_check_reserved;
  g_methods.xFileControl = fault_file_control;
  g_methods.xSectorSize = fault_sector_size;
  g_methods.xDeviceCharacteristics = fault_device;
  sqlite3_vfs_register(&g_vfs, 0);
}

}  // namespace

const char* sqlite_fault_vfs() {
  const char* value = std::getenv(kSqliteFaultVariable);
  if (!value || !*value) return nullptr;
  if (g_armed != value) {  // a new value (a forked test child) sets the counter anew
    if (!g_real) register_vfs();
    g_operations_left = std::strtol(value, nullptr, 10);
    g_armed = value;
    std::cerr << "bwreport: TEST HOOK ACTIVE: " << kSqliteFaultVariable << "=" << printable_text(value, 40) << std::endl;
  }
  return g_vfs.zName;
}

}  // namespace bws::history

#else

namespace bws::history {
const char* sqlite_fault_vfs() { return nullptr; }
}  // namespace bws::history

#endif

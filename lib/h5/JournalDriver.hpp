#pragma once
// An HDF5 file driver (POSIX, like HDF5's own sec2) that can take a file back
// to a mark. HDF5 rewrites its metadata in place (superblock, B-trees,
// heaps, object headers), so a write that fails half-way through a flush
// (a full disk, an I/O error) leaves pointers to blocks that never reached
// the disk: the whole file becomes unreadable, earlier steps included. This
// driver keeps, in memory, the bytes that every write overwrites below the
// mark's end of file (once per 4 KiB page, the first time it is touched);
// rolling back truncates the file to the mark's length and writes those
// bytes back, so the file is exactly what it was at the mark, whatever
// HDF5's caches wrote since. After a failed write or a rollback every
// further write of that HDF5 file is kept in memory only (its caches no
// longer match the disk): the file must be closed and opened again.
//
// At each mark the driver also reserves space past the end of the file
// (kReserveBytes, allocated, invisible to HDF5): a rollback frees it, so the
// few blocks needed to write the file's status fit even on a disk another
// process filled.
#include <hdf5.h>

#include <cstdint>
#include <string>

namespace bws::h5 {

inline constexpr std::uint64_t kJournalReserveBytes = std::uint64_t{64} << 10;

// Sets the driver on a file-access property list.
void use_journal_driver(hid_t fapl);

// For an open file (any identifier in it) opened with the driver:
// the bytes now on disk become the rollback point; nothing written so far is
// kept. Throws RuntimeFailure when the reserve cannot be allocated (full
// disk) - the step after the mark would not fit.
void journal_mark(hid_t file);
// Restores the bytes of the mark and drops every later write of this open
// file. Throws RuntimeFailure when the file cannot be restored.
void journal_roll_back(hid_t file);
// The first write that failed ("" when none): after it the driver is
// fail-stop (nothing more reaches the disk, HDF5 is told every write worked,
// and closing the file without a rollback restores the mark too).
std::string journal_failure(hid_t file);
// Why the last close of a file opened with the driver failed in this
// process (the mark could not be restored, the reserve not released), ""
// when it did not; cleared by the call. HDF5 is always told the close
// worked (it would close the file again at shutdown and crash).
std::string take_journal_close_failure();
// Test hook: every later write of this open file fails with errno `error`
// (0: writes work again).
void journal_fail_writes(hid_t file, int error);

}  // namespace bws::h5

#include "h5/JournalDriver.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <H5FDpublic.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "core/Errors.hpp"

namespace bws::h5 {
namespace {

constexpr std::uint64_t kPageBytes = 4096;

struct JournalState {
  int fd = -1;
  dev_t device = 0;
  ino_t inode = 0;
  haddr_t eoa = 0;
  haddr_t eof = 0;                  // the length HDF5 sees
  std::uint64_t reserve_end = 0;    // the reserve: [eof, reserve_end) allocated past the file, when > eof
  std::uint64_t mark_eof = 0;       // the file's length at the mark
  std::map<std::uint64_t, std::vector<char>> pre_images;  // page index -> bytes at the mark
  // Fail-stop: after the first failed write (or a rollback) no byte more
  // reaches the disk; HDF5 is told every write succeeded and reads what it
  // wrote from these pages, so its caches stay consistent and it can close
  // the file (HDF5 1.10 cannot close a file after a failed flush).
  bool dropping = false;
  std::map<std::uint64_t, std::vector<char>> overlay;  // page index -> bytes HDF5 wrote since
  std::string failure;              // the first failed write, said
  bool restored = false;            // the disk holds the mark again
  int injected_errno = 0;           // test hook
};

// H5FD_t must come first: HDF5 hands the driver its own struct back.
struct JournalFile {
  H5FD_t pub;
  JournalState* state;
};

JournalState& state_of(const H5FD_t* file) { return *reinterpret_cast<const JournalFile*>(file)->state; }

herr_t push_error(H5E_major_t major, H5E_minor_t minor, const std::string& message) {
  H5Epush2(H5E_DEFAULT, __FILE__, "journal driver", __LINE__, H5E_ERR_CLS, major, minor, "%s", message.c_str());
  return -1;
}

std::string errno_text(const char* what, int error, std::uint64_t offset) {
  return std::string(what) + " at offset " + std::to_string(offset) + ": " + std::strerror(error) + " (errno " +
         std::to_string(error) + ")";
}

// Whole pread/pwrite; false with errno set on failure. Reads past the end give zeros.
bool read_all(int fd, char* buffer, std::uint64_t size, std::uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pread(fd, buffer, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      std::memset(buffer, 0, size);
      return true;
    }
    buffer += n, size -= static_cast<std::uint64_t>(n), offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

bool write_all(int fd, const char* buffer, std::uint64_t size, std::uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, buffer, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    buffer += n, size -= static_cast<std::uint64_t>(n), offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

// Keeps the mark's bytes of every page of [offset, offset + size) below the
// mark's end that is not kept yet.
bool preserve(JournalState& s, std::uint64_t offset, std::uint64_t size) {
  const std::uint64_t end = std::min<std::uint64_t>(offset + size, s.mark_eof);
  for (std::uint64_t page = offset / kPageBytes; page * kPageBytes < end; ++page) {
    if (s.pre_images.count(page)) continue;
    const std::uint64_t from = page * kPageBytes;
    std::vector<char> bytes(std::min(kPageBytes, s.mark_eof - from));
    if (!read_all(s.fd, bytes.data(), bytes.size(), from)) return false;
    s.pre_images.emplace(page, std::move(bytes));
  }
  return true;
}

// The page as HDF5 sees it now: from the overlay, else from the disk.
std::vector<char>& overlay_page(JournalState& s, std::uint64_t page) {
  auto it = s.overlay.find(page);
  if (it != s.overlay.end()) return it->second;
  std::vector<char> bytes(kPageBytes, '\0');
  const std::uint64_t from = page * kPageBytes;
  if (from < s.eof) (void)read_all(s.fd, bytes.data(), std::min<std::uint64_t>(kPageBytes, s.eof - from), from);
  return s.overlay.emplace(page, std::move(bytes)).first->second;
}

void overlay_write(JournalState& s, std::uint64_t addr, std::uint64_t size, const char* data) {
  while (size > 0) {
    const std::uint64_t page = addr / kPageBytes, at = addr % kPageBytes;
    const std::uint64_t n = std::min(size, kPageBytes - at);
    std::memcpy(overlay_page(s, page).data() + at, data, n);
    addr += n, data += n, size -= n;
  }
}

void overlay_read(const JournalState& s, std::uint64_t addr, std::uint64_t size, char* out) {
  for (auto it = s.overlay.lower_bound(addr / kPageBytes); it != s.overlay.end(); ++it) {
    const std::uint64_t from = it->first * kPageBytes;
    if (from >= addr + size) break;
    const std::uint64_t lo = std::max(from, addr), hi = std::min(from + kPageBytes, addr + size);
    std::memcpy(out + (lo - addr), it->second.data() + (lo - from), hi - lo);
  }
}

// Puts the mark's bytes back: first the length (which frees what the step
// and the reserve took), then the kept bytes, then to the disk.
void restore(JournalState& s) {
  if (::ftruncate(s.fd, static_cast<off_t>(s.mark_eof)) != 0)
    throw RuntimeFailure(errno_text("cannot truncate the file back", errno, s.mark_eof));
  for (const auto& [page, bytes] : s.pre_images)
    if (!write_all(s.fd, bytes.data(), bytes.size(), page * kPageBytes))
      throw RuntimeFailure(errno_text("cannot write the file's earlier bytes back", errno, page * kPageBytes));
  if (::fdatasync(s.fd) != 0 && errno != EINVAL && errno != EROFS)
    throw RuntimeFailure(errno_text("cannot sync the restored file", errno, 0));
  s.restored = true;
  s.reserve_end = 0;
}

std::uint64_t physical_size(const JournalState& s) { return std::max<std::uint64_t>(s.eof, s.reserve_end); }

H5FD_t* journal_open(const char* name, unsigned flags, hid_t, haddr_t maxaddr) {
  // Truncated only once it is known to be a regular file (below); opened
  // without blocking (a FIFO) and without becoming a terminal's.
  int o_flags = ((flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_NOCTTY;
  if (flags & H5F_ACC_CREAT) o_flags |= O_CREAT;
  if (flags & H5F_ACC_EXCL) o_flags |= O_EXCL;
  if (maxaddr == 0 || maxaddr == HADDR_UNDEF) {
    push_error(H5E_ARGS, H5E_BADRANGE, "bogus maxaddr");
    return nullptr;
  }
  const int fd = ::open(name, o_flags | O_CLOEXEC, 0644);
  if (fd < 0) {
    push_error(H5E_FILE, H5E_CANTOPENFILE, std::string("unable to open file '") + name + "': " + std::strerror(errno));
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    push_error(H5E_FILE, H5E_BADFILE, std::string("unable to stat '") + name + "': " + std::strerror(errno));
    ::close(fd);
    return nullptr;
  }
  // A survey file is a regular file: a device or a FIFO is never written
  // (nor truncated, nor rolled back).
  if (!S_ISREG(st.st_mode)) {
    push_error(H5E_FILE, H5E_BADFILE, std::string("'") + name + "' is not a regular file");
    ::close(fd);
    return nullptr;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if ((flags & H5F_ACC_TRUNC) && st.st_size != 0) {
    if (::ftruncate(fd, 0) != 0) {
      push_error(H5E_FILE, H5E_CANTOPENFILE, std::string("unable to truncate '") + name + "': " + std::strerror(errno));
      ::close(fd);
      return nullptr;
    }
    st.st_size = 0;
  }
  auto* file = new JournalFile{};
  file->state = new JournalState{};
  JournalState& s = *file->state;
  s.fd = fd;
  s.device = st.st_dev;
  s.inode = st.st_ino;
  s.eof = static_cast<haddr_t>(st.st_size);
  s.mark_eof = s.eof;  // until the first mark, a rollback restores the file as opened
  return &file->pub;
}

// Why the last close failed; see take_journal_close_failure().
std::mutex close_failure_mutex;
std::string last_close_failure;

// Every close succeeds towards HDF5: a file whose driver close fails stays
// in HDF5's list and is closed again at library shutdown, through this
// driver's struct freed below (a crash in H5F__close_cb, exit 139). The
// failure is kept for take_journal_close_failure() instead.
herr_t journal_close(H5FD_t* file) {
  auto* f = reinterpret_cast<JournalFile*>(file);
  JournalState& s = *f->state;
  std::string failure;
  auto note = [&](const std::string& why) {
    if (failure.empty()) failure = why;
  };
  // A write failed and no one rolled back: the disk gets the mark's bytes
  // (never a half-written step).
  if (!s.failure.empty() && !s.restored) {
    try {
      restore(s);
    } catch (const RuntimeFailure& e) {
      note(e.what());
    }
  }
  // The reserve is given back when the file is closed normally.
  if (!s.dropping && s.reserve_end > s.eof && ::ftruncate(s.fd, static_cast<off_t>(s.eof)) != 0)
    note(errno_text("unable to release the reserve", errno, s.eof));
  if (::close(s.fd) != 0) note(std::string("unable to close the file: ") + std::strerror(errno));
  delete f->state;
  delete f;
  if (!failure.empty()) {
    const std::lock_guard<std::mutex> guard(close_failure_mutex);
    last_close_failure = failure;
  }
  return 0;
}

int journal_cmp(const H5FD_t* a, const H5FD_t* b) {
  const JournalState& x = state_of(a);
  const JournalState& y = state_of(b);
  if (x.device != y.device) return x.device < y.device ? -1 : 1;
  if (x.inode != y.inode) return x.inode < y.inode ? -1 : 1;
  return 0;
}

herr_t journal_query(const H5FD_t*, unsigned long* flags) {
  if (flags)
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
             H5FD_FEAT_AGGREGATE_SMALLDATA;
  return 0;
}

haddr_t journal_get_eoa(const H5FD_t* file, H5FD_mem_t) { return state_of(file).eoa; }

herr_t journal_set_eoa(H5FD_t* file, H5FD_mem_t, haddr_t addr) {
  state_of(file).eoa = addr;
  return 0;
}

haddr_t journal_get_eof(const H5FD_t* file, H5FD_mem_t) { return state_of(file).eof; }

herr_t journal_get_handle(H5FD_t* file, hid_t, void** handle) {
  if (!handle) return push_error(H5E_ARGS, H5E_BADVALUE, "no handle pointer");
  *handle = &state_of(file);
  return 0;
}

herr_t journal_read(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
  JournalState& s = state_of(file);
  auto* out = static_cast<char*>(buffer);
  // Past HDF5's end of file (the reserve included) reads as zeros, as in sec2.
  const std::uint64_t inside = addr >= s.eof ? 0 : std::min<std::uint64_t>(size, s.eof - addr);
  if (inside > 0 && !read_all(s.fd, out, inside, addr))
    return push_error(H5E_IO, H5E_READERROR, errno_text("file read failed", errno, addr));
  std::memset(out + inside, 0, size - inside);
  if (!s.overlay.empty()) overlay_read(s, addr, size, out);
  return 0;
}

herr_t journal_write(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size, const void* buffer) {
  JournalState& s = state_of(file);
  const char* data = static_cast<const char*>(buffer);
  if (!s.dropping) {
    if (s.injected_errno != 0)
      s.failure = errno_text("file write failed (test hook)", s.injected_errno, addr);
    else if (!preserve(s, addr, size))
      s.failure = errno_text("cannot keep the bytes a write overwrites", errno, addr);
    else if (!write_all(s.fd, data, size, addr))
      s.failure = errno_text("file write failed", errno, addr);
    s.dropping = !s.failure.empty();
  }
  if (s.dropping) overlay_write(s, addr, size, data);
  s.eof = std::max<haddr_t>(s.eof, addr + size);
  return 0;
}

herr_t journal_flush(H5FD_t*, hid_t, hbool_t) { return 0; }

// HDF5 asks for the file's length to become its end of allocation; the
// reserve stays allocated past it (until the file is closed).
herr_t journal_truncate(H5FD_t* file, hid_t, hbool_t) {
  JournalState& s = state_of(file);
  if (s.dropping) s.eof = s.eoa;
  if (s.dropping || s.eoa == s.eof) return 0;
  if (s.eoa < s.mark_eof && !preserve(s, s.eoa, s.mark_eof - s.eoa))
    return push_error(H5E_IO, H5E_READERROR, errno_text("cannot keep the bytes it truncates", errno, s.eoa));
  const std::uint64_t before = physical_size(s);
  s.eof = s.eoa;
  const std::uint64_t after = physical_size(s);
  if (after != before && ::ftruncate(s.fd, static_cast<off_t>(after)) != 0)
    return push_error(H5E_IO, H5E_SEEKERROR, errno_text("unable to extend or truncate the file", errno, after));
  return 0;
}

const H5FD_class_t kJournalClass = {
    "bws_journal",                                   // name
    (static_cast<haddr_t>(1) << (8 * sizeof(off_t) - 1)) - 1,  // maxaddr
    H5F_CLOSE_WEAK,                                  // fc_degree
    nullptr,                                         // terminate
    nullptr, nullptr, nullptr,                       // sb_size, sb_encode, sb_decode: no driver info
    0, nullptr, nullptr, nullptr,                    // fapl
    0, nullptr, nullptr,                             // dxpl
    journal_open, journal_close, journal_cmp, journal_query,
    nullptr,                                         // get_type_map
    nullptr, nullptr,                                // alloc, free: HDF5's own
    journal_get_eoa, journal_set_eoa, journal_get_eof, journal_get_handle,
    journal_read, journal_write, journal_flush, journal_truncate,
    nullptr, nullptr,                                // lock, unlock
    H5FD_FLMAP_DICHOTOMY};

hid_t journal_driver_id() {
  static std::once_flag once;
  static hid_t id = H5I_INVALID_HID;
  std::call_once(once, [] { id = H5FDregister(&kJournalClass); });
  if (id < 0) throw RuntimeFailure("HDF5: cannot register the journal file driver");
  return id;
}

JournalState& state_of_file(hid_t file) {
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) {
    H5Eclear2(H5E_DEFAULT);
    throw RuntimeFailure("HDF5: the file was not opened with the journal driver");
  }
  return *static_cast<JournalState*>(handle);
}

}  // namespace

std::string take_journal_close_failure() {
  const std::lock_guard<std::mutex> guard(close_failure_mutex);
  return std::exchange(last_close_failure, std::string());
}

void use_journal_driver(hid_t fapl) {
  if (H5Pset_driver(fapl, journal_driver_id(), nullptr) < 0) {
    H5Eclear2(H5E_DEFAULT);
    throw RuntimeFailure("HDF5: cannot use the journal file driver");
  }
}

void journal_mark(hid_t file) {
  JournalState& s = state_of_file(file);
  if (s.dropping) throw RuntimeFailure("the file was rolled back; it must be opened again");
  s.pre_images.clear();
  s.mark_eof = s.eof;
  // Allocate the file's holes (HDF5 extends a file by truncate and fills it
  // later), so that writing the kept bytes back never needs new blocks; then
  // the reserve past the end. Without fallocate (some network file systems)
  // only the reserve is written out.
  (void)::fallocate(s.fd, 0, 0, static_cast<off_t>(s.eof));
  const std::uint64_t end = s.eof + kJournalReserveBytes;
  if (end > s.reserve_end) {
    const int error = ::posix_fallocate(s.fd, static_cast<off_t>(s.eof), static_cast<off_t>(kJournalReserveBytes));
    if (error != 0) {
      (void)::ftruncate(s.fd, static_cast<off_t>(physical_size(s)));  // what a partial reserve added
      throw RuntimeFailure("no room for the next step (" + std::to_string(kJournalReserveBytes >> 10) +
                           " KiB reserved past the file): " + std::strerror(error));
    }
    s.reserve_end = end;
  }
}

void journal_roll_back(hid_t file) {
  JournalState& s = state_of_file(file);
  s.dropping = true;  // HDF5 still writes while it closes: into the overlay
  restore(s);
}

std::string journal_failure(hid_t file) { return state_of_file(file).failure; }

void journal_fail_writes(hid_t file, int error) { state_of_file(file).injected_errno = error; }

}  // namespace bws::h5

#include "core/FileLock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "core/Timestamps.hpp"

namespace bws {
namespace {

namespace fs = std::filesystem;

// Tries of acquire() when the lock file is replaced under it: each try
// loses only to a run that released its lock meanwhile, so a few suffice.
constexpr int kLockTries = 16;
constexpr std::size_t kMaxHolderBytes = 256;

std::string quoted(const std::string& path) {
  std::string text = "'";  // appended, not "'" + ...: GCC 12 warns (-Wrestrict) on that form
  text += printable_text(path, 200);
  text += '\'';
  return text;
}

std::string this_host() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "unknown";
  return host;
}

std::string holder_text() {
  return "pid " + std::to_string(::getpid()) + " on host " + this_host() + " since " + utc_now_iso8601();
}

// What the lock file of another run says about its holder.
std::string read_holder(int fd) {
  char text[kMaxHolderBytes];
  const ssize_t n = ::pread(fd, text, sizeof text, 0);
  std::string holder = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string();
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
  return holder.empty() ? "another process" : printable_text(holder, kMaxHolderBytes);
}

bool same_inode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// The lock file, opened without following a link or blocking on a FIFO.
int open_lock_file(const std::string& label, const std::string& path) {
  const PathKind kind = path_kind(path, false);
  if (kind != PathKind::Missing && kind != PathKind::Regular)
    throw UsageError(label + ": the lock file " + quoted(path) + " is " + path_kind_noun(kind) +
                     "; allowed: a regular file or none (remove it)");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd < 0)
    throw UsageError(label + ": cannot make the lock file " + quoted(path) + ": " + std::strerror(errno) +
                     "; allowed: a writable directory");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UsageError(label + ": the lock file " + quoted(path) + " is not a regular file; allowed: a regular file or none");
  }
  return fd;
}

// F_SETLK on the whole file: true when locked (or when the file system
// has no locks: then nothing more can be done), false when another process
// holds it.
bool try_lock(int fd) {
  struct flock range {};
  range.l_type = F_WRLCK;
  range.l_whence = SEEK_SET;
  range.l_start = 0;
  range.l_len = 0;  // the whole file, however long
  while (::fcntl(fd, F_SETLK, &range) != 0) {
    if (errno == EINTR) continue;
    if (errno == EACCES || errno == EAGAIN) return false;
    return true;  // ENOLCK, EOPNOTSUPP: no locks on this file system
  }
  return true;
}

}  // namespace

std::string lock_path_of(const std::string& target) {
  std::error_code error;
  fs::path resolved = fs::weakly_canonical(fs::absolute(target, error), error);
  if (error || resolved.empty()) resolved = fs::path(target);
  return resolved.string() + ".lock";
}

FileLock FileLock::acquire(const std::string& label, const std::string& target) {
  const std::string path = lock_path_of(target);
  for (int attempt = 0; attempt < kLockTries; ++attempt) {
    const int fd = open_lock_file(label, path);
    if (!try_lock(fd)) {
      const std::string holder = read_holder(fd);
      ::close(fd);
      throw UsageError(label + ": " + quoted(target) + " is being written by another run (" + holder +
                       "); allowed: another file, or this one once that run has ended");
    }
    // A run that ended may have removed the name between our open() and
    // the lock: the lock must be on the file the name leads to now.
    struct stat opened {}, named {};
    if (::fstat(fd, &opened) != 0 || ::lstat(path.c_str(), &named) != 0 || !same_inode(opened, named)) {
      ::close(fd);
      continue;
    }
    const std::string holder = holder_text() + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, holder.data(), holder.size(), 0) < 0) {
      // The lock holds without its text; a second run then names "another process".
    }
    return FileLock(fd, path);
  }
  throw RuntimeFailure(label + ": cannot lock " + quoted(target) + ": its lock file " + quoted(path) +
                       " keeps being replaced");
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() noexcept {
  if (fd_ < 0) return;
  // Removed while still locked, and only when the name still leads to our
  // file: the next run makes a fresh one.
  struct stat opened {}, named {};
  if (::fstat(fd_, &opened) == 0 && ::lstat(path_.c_str(), &named) == 0 && same_inode(opened, named))
    ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

}  // namespace bws

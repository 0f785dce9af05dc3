#include "core/FileGuard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/Errors.hpp"
#include "core/FileIdentity.hpp"
#include "core/PrintableText.hpp"

namespace bws {
namespace {

namespace fs = std::filesystem;

// Appended, not "'" + text: GCC 12 at -O3 warns (-Wrestrict, a false
// positive, GCC bug 105329) on a literal plus a temporary string.
std::string quoted_path(const std::string& path) {
  std::string quoted = "'";
  quoted += printable_text(path, 200);
  return quoted += "'";
}

PathKind kind_of(mode_t mode) {
  if (S_ISREG(mode)) return PathKind::Regular;
  if (S_ISDIR(mode)) return PathKind::Directory;
  if (S_ISFIFO(mode)) return PathKind::Fifo;
  if (S_ISSOCK(mode)) return PathKind::Socket;
  if (S_ISCHR(mode)) return PathKind::CharDevice;
  if (S_ISBLK(mode)) return PathKind::BlockDevice;
  if (S_ISLNK(mode)) return PathKind::SymbolicLink;
  return PathKind::Other;
}

std::string errno_text() { return std::strerror(errno); }

// The directory a new file at `path` goes into ("." for a bare name).
std::string parent_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

std::string name_of(const std::string& path) { return fs::path(path).filename().string(); }

// A file of ours, by what it starts with: HDF5's signature stands at byte 0,
// 512, 1024, ... (a user block may precede it); a text file has no NUL byte.
bool recognised_as_own(const std::string& path, OwnFile own) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  struct stat st {};
  bool own_file = false;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (st.st_size == 0) {
      own_file = true;
    } else if (own == OwnFile::Png) {
      static const char kSignature[8] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};
      char head[8];
      own_file = ::pread(fd, head, 8, 0) == 8 && std::memcmp(head, kSignature, 8) == 0;
    } else if (own == OwnFile::Hdf5) {
      static const char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
      for (off_t at = 0; at + 8 <= st.st_size && !own_file; at = at == 0 ? 512 : at * 2) {
        char head[8];
        own_file = ::pread(fd, head, 8, at) == 8 && std::memcmp(head, kSignature, 8) == 0;
      }
    } else {
      char head[4096];
      const ssize_t n = ::pread(fd, head, sizeof head, 0);
      own_file = n > 0 && std::memchr(head, '\0', static_cast<std::size_t>(n)) == nullptr;
    }
  }
  ::close(fd);
  return own_file;
}

const char* own_noun(OwnFile own) {
  switch (own) {
    case OwnFile::Hdf5: return "an HDF5 file (a survey file)";
    case OwnFile::Png: return "a PNG image";
    case OwnFile::Text: break;
  }
  return "a text file";
}

// The checks on an output path that do not depend on --force: a path that
// exists must be a regular file (never followed through a link), its
// directory must exist, and it must not be an input.
void check_output_kind(const std::string& path, const OutputRules& rules) {
  if (path.empty()) throw UsageError(rules.label + ": empty path; allowed: a path of a regular file");
  const PathKind kind = path_kind(path, false);
  if (kind != PathKind::Missing && kind != PathKind::Regular)
    throw UsageError(rules.label + ": " + quoted_path(path) + " is " + path_kind_noun(kind) +
                     "; allowed: a new path or a regular file (bwsurvey never writes to or removes anything else, "
                     "--force or not)");
  const std::string dir = parent_of(path);
  if (path_kind(dir) != PathKind::Directory)
    throw UsageError(rules.label + ": the directory of " + quoted_path(path) + " does not exist; allowed: a path in an "
                     "existing directory");
  refuse_input_as_output(rules.label, path, rules.inputs);
}

// Creates a fresh scratch file "<dir>/.<name>.XXXXXX" (O_EXCL, an
// unpredictable name); its descriptor, and the name in `scratch`.
int make_scratch_file(const std::string& dir, const std::string& name, std::string& scratch) {
  std::string pattern = (fs::path(dir) / ("." + name + ".XXXXXX")).string();
  const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  // mkstemp's 0600 is too strict for a result others read: the usual 0666
  // less the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  scratch = pattern;
  return fd;
}

}  // namespace

PathKind path_kind(const std::string& path, bool follow_links) {
  struct stat st {};
  const int rc = follow_links ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st);
  if (rc != 0) return errno == ENOENT || errno == ENOTDIR ? PathKind::Missing : PathKind::Other;
  return kind_of(st.st_mode);
}

const char* path_kind_noun(PathKind kind) {
  switch (kind) {
    case PathKind::Missing: return "missing";
    case PathKind::Regular: return "a regular file";
    case PathKind::Directory: return "a directory";
    case PathKind::Fifo: return "a FIFO";
    case PathKind::Socket: return "a socket";
    case PathKind::CharDevice: return "a character device";
    case PathKind::BlockDevice: return "a block device";
    case PathKind::SymbolicLink: return "a symbolic link";
    case PathKind::Other: return "not a file that can be read";
  }
  return "unknown";
}

std::optional<FileIdentity> file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

void require_regular_input(const std::string& label, const std::string& path) {
  if (path.empty()) throw UsageError(label + ": empty path; allowed: a regular file");
  const PathKind kind = path_kind(path);
  if (kind == PathKind::Missing) throw UsageError(label + ": " + quoted_path(path) + " does not exist; allowed: a regular file");
  if (kind != PathKind::Regular)
    throw UsageError(label + ": " + quoted_path(path) + " is " + path_kind_noun(kind) + "; allowed: a regular file");
}

// ---- InputFile -------------------------------------------------------------

InputFile::InputFile(std::string label, std::string path, int fd, FileIdentity id, std::uint64_t size)
    : label_(std::move(label)), path_(std::move(path)), fd_(fd), identity_(id), size_(size) {}

InputFile::InputFile(InputFile&& o) noexcept
    : label_(std::move(o.label_)), path_(std::move(o.path_)), fd_(o.fd_), identity_(o.identity_), size_(o.size_) {
  o.fd_ = -1;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

InputFile InputFile::open(const std::string& label, const std::string& path) {
  require_regular_input(label, path);  // stat() first: a FIFO is never opened
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw UsageError(label + ": " + quoted_path(path) + " cannot be read: " + errno_text());
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // replaced between stat() and open()
    ::close(fd);
    throw UsageError(label + ": " + quoted_path(path) + " is not a regular file; allowed: a regular file");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return InputFile(label, path, fd, FileIdentity{st.st_dev, st.st_ino}, static_cast<std::uint64_t>(st.st_size));
}

std::string InputFile::read_all(std::uint64_t max_bytes) {
  const std::string too_large = label_ + ": " + quoted_path(path_) + " is larger than " +
                                (max_bytes >= (1u << 20) ? std::to_string(max_bytes >> 20) + " MiB"
                                                         : std::to_string(max_bytes) + " bytes") +
                                "; allowed: a smaller file";
  if (size_ > max_bytes) throw UsageError(too_large);
  std::string text;
  text.reserve(static_cast<std::size_t>(size_));
  char buffer[65536];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd_, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(label_ + ": " + quoted_path(path_) + " cannot be read: " + errno_text());
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
    if (text.size() > max_bytes) throw UsageError(too_large);  // it grew while read
  }
  return text;
}

std::string InputFile::read_prefix(std::size_t count) {
  std::string head(count, '\0');
  const ssize_t n = ::pread(fd_, head.data(), count, 0);
  head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return head;
}

std::string read_input_file(const std::string& label, const std::string& path, std::uint64_t max_bytes) {
  std::string text = InputFile::open(label, path).read_all(max_bytes);
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw UsageError(label + ": " + quoted_path(path) + " holds a NUL byte at offset " + std::to_string(nul) +
                     ": not a text file (damaged, or not the file meant); allowed: a text file");
  return text;
}

// ---- Outputs ---------------------------------------------------------------

void refuse_input_as_output(const std::string& label, const std::string& path, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs)
    if (same_file(path, input))
      throw UsageError(label + ": " + quoted_path(path) + " is the input " + quoted_path(input) +
                       "; allowed: a path that is none of the inputs (an input is never written over)");
}

void check_output_file(const std::string& path, const OutputRules& rules) {
  check_output_kind(path, rules);
  if (path_kind(path, false) != PathKind::Regular) return;
  if (!rules.force)
    throw UsageError(rules.label + ": " + quoted_path(path) + " exists; allowed: a new path, or --force to replace it");
  if (!recognised_as_own(path, rules.own))
    throw UsageError(rules.label + ": " + quoted_path(path) + " exists and is not " + own_noun(rules.own) +
                     " that bwsurvey writes; allowed: a new path (--force replaces only such files)");
}

struct AtomicFile::Stream {
  int fd = -1;
  std::ofstream out;
};

AtomicFile::AtomicFile(std::string path, OutputRules rules) : path_(std::move(path)), rules_(std::move(rules)) {
  check_output_file(path_, rules_);
  out_ = std::make_unique<Stream>();
  out_->fd = make_scratch_file(parent_of(path_), name_of(path_), scratch_);
  if (out_->fd < 0)
    throw UsageError(rules_.label + ": cannot create a file in the directory of " + quoted_path(path_) + ": " +
                     errno_text() + "; allowed: a writable directory");
}

AtomicFile::~AtomicFile() {
  if (out_ && out_->fd >= 0) ::close(out_->fd);
  if (!committed_ && !scratch_.empty()) ::unlink(scratch_.c_str());
}

std::ostream& AtomicFile::stream() {
  if (!out_->out.is_open()) out_->out.open(scratch_, std::ios::binary | std::ios::trunc);
  return out_->out;
}

void AtomicFile::write(std::string_view bytes) { stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size())); }

void AtomicFile::commit() {
  const auto fail = [&](const std::string& why) {
    throw RuntimeFailure(rules_.label + ": cannot write " + quoted_path(path_) + ": " + why);
  };
  if (out_->out.is_open()) {
    out_->out.flush();
    if (!out_->out) fail("a write failed (disk full?)");
    out_->out.close();
  }
  if (::fsync(out_->fd) != 0) fail(errno_text());
  ::close(out_->fd);
  out_->fd = -1;
  // Again at the last moment: the target may have changed while we wrote.
  check_output_kind(path_, rules_);
  if (::rename(scratch_.c_str(), path_.c_str()) != 0) fail(errno_text());
  committed_ = true;
}

// ---- AtomicDirectory -------------------------------------------------------

struct AtomicDirectory::Entry {
  std::string name;
  std::ofstream out;
};

AtomicDirectory::AtomicDirectory(std::string dir, OutputRules rules) : dir_(std::move(dir)), rules_(std::move(rules)) {
  if (dir_.empty()) throw UsageError(rules_.label + ": empty path; allowed: a directory");
  const PathKind kind = path_kind(dir_);
  if (kind != PathKind::Missing && kind != PathKind::Directory)
    throw UsageError(rules_.label + ": " + quoted_path(dir_) + " is " + path_kind_noun(kind) + "; allowed: a directory");
  refuse_input_as_output(rules_.label, dir_, rules_.inputs);
  if (kind == PathKind::Missing) {
    if (path_kind(parent_of(dir_)) != PathKind::Directory || ::mkdir(dir_.c_str(), 0777) != 0)
      throw UsageError(rules_.label + ": cannot create the directory " + quoted_path(dir_) +
                       "; allowed: a new directory in an existing one, or an existing directory");
    made_dir_ = true;
  }
  std::string pattern = (fs::path(dir_) / ".bwsurvey-scratch.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    if (made_dir_) ::rmdir(dir_.c_str());
    throw UsageError(rules_.label + ": cannot write in " + quoted_path(dir_) + ": " + errno_text() +
                     "; allowed: a writable directory");
  }
  scratch_ = pattern;
}

AtomicDirectory::~AtomicDirectory() {
  if (committed_) return;
  for (auto& e : entries_) {
    e->out.close();
    ::unlink((fs::path(scratch_) / e->name).c_str());
  }
  ::rmdir(scratch_.c_str());
  if (made_dir_) ::rmdir(dir_.c_str());  // only when empty
}

std::ostream& AtomicDirectory::add(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    throw UsageError(rules_.label + ": bad file name " + quoted_path(name));
  check_output_file((fs::path(dir_) / name).string(), rules_);
  auto entry = std::make_unique<Entry>();
  entry->name = name;
  const std::string path = (fs::path(scratch_) / name).string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) throw RuntimeFailure(rules_.label + ": cannot write " + quoted_path(path) + ": " + errno_text());
  ::close(fd);
  entry->out.open(path, std::ios::binary | std::ios::trunc);
  entries_.push_back(std::move(entry));
  return entries_.back()->out;
}

void AtomicDirectory::commit() {
  for (auto& e : entries_) {
    e->out.flush();
    if (!e->out)
      throw RuntimeFailure(rules_.label + ": cannot write " + quoted_path((fs::path(dir_) / e->name).string()) +
                           ": a write failed (disk full?)");
    e->out.close();
  }
  // Every target once more before the first is moved: all or none.
  for (auto& e : entries_) check_output_file((fs::path(dir_) / e->name).string(), rules_);
  for (auto& e : entries_) {
    const std::string from = (fs::path(scratch_) / e->name).string(), to = (fs::path(dir_) / e->name).string();
    if (::rename(from.c_str(), to.c_str()) != 0)
      throw RuntimeFailure(rules_.label + ": cannot write " + quoted_path(to) + ": " + errno_text());
  }
  ::rmdir(scratch_.c_str());
  committed_ = true;
}

// ---- ScratchDirectory ------------------------------------------------------

ScratchDirectory::ScratchDirectory(const std::string& dir, const std::string& label) {
  std::string pattern = (fs::path(dir) / ".bwsurvey-scratch.XXXXXX").string();
  if (path_kind(dir) != PathKind::Directory || ::mkdtemp(pattern.data()) == nullptr)
    throw UsageError(label + ": cannot write in " + quoted_path(dir) + ": " + errno_text() +
                     "; allowed: a writable directory");
  path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
  for (const std::string& name : names_) ::unlink((fs::path(path_) / name).c_str());
  ::rmdir(path_.c_str());
}

std::string ScratchDirectory::file(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    throw UsageError("bad scratch file name " + quoted_path(name));
  names_.push_back(name);
  return (fs::path(path_) / name).string();
}

}  // namespace bws

#pragma once
// One way in, one way out: every file bwsurvey and bwreport read or write
// goes through here (the Python report's twin is analysis/file_guard.py), so
// the rules below hold for every command at once:
//  - An input is opened only when stat() has found a regular file (a FIFO is
//    never opened, so nothing blocks; a device is never touched), then
//    checked again on the open descriptor, and read within a stated bound.
//  - An output path that exists and is not a regular file (a device, a FIFO,
//    a socket, a directory, a symbolic link) is refused whatever --force
//    says; an existing regular file is replaced only with --force, and only
//    when it is recognisably one bwsurvey writes (OwnFile).
//  - An output is never one of the command's inputs (device and inode,
//    through any link), and is written to a fresh scratch file beside it
//    (created exclusively, unpredictable name) that is renamed into place
//    when complete: rename() replaces a name, it never writes through a link
//    that sits where the output goes.
// Every refusal is a UsageError (exit 2): one line naming the option and
// what is allowed; nothing has been created or changed by then.
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace bws {

enum class PathKind { Missing, Regular, Directory, Fifo, Socket, CharDevice, BlockDevice, SymbolicLink, Other };

// What `path` is; `follow_links` false looks at a symbolic link itself.
PathKind path_kind(const std::string& path, bool follow_links = true);
const char* path_kind_noun(PathKind kind);  // "a FIFO", "a character device", ...

struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileIdentity& o) const { return device == o.device && inode == o.inode; }
};
// The file `path` names (links followed), or nullopt when there is none.
std::optional<FileIdentity> file_identity(const std::string& path);

// ---- Inputs ---------------------------------------------------------------

// The most bytes read from a text input (a topology file, a reference file, a
// file of drain reasons): such files are written by hand or by a script.
inline constexpr std::uint64_t kMaxTextInputBytes = std::uint64_t{64} << 20;

// UsageError "<label>: '<path>' is a FIFO; allowed: a regular file" unless
// `path` names a regular file (links followed). For inputs that a library
// opens by name (HDF5, SQLite): call this first, it opens nothing.
void require_regular_input(const std::string& label, const std::string& path);

// An input opened by the rules above: stat(), then open(O_NONBLOCK|O_NOCTTY),
// then fstat() of the descriptor (still a regular file, the same one).
class InputFile {
 public:
  static InputFile open(const std::string& label, const std::string& path);
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  // The whole file; UsageError "<label>: '<path>' is larger than N MiB" when
  // it holds more than max_bytes (a file that grows while read too).
  std::string read_all(std::uint64_t max_bytes);
  // The first `count` bytes at most (signature checks).
  std::string read_prefix(std::size_t count);
  int fd() const { return fd_; }
  FileIdentity identity() const { return identity_; }
  std::uint64_t size_bytes() const { return size_; }

 private:
  InputFile(std::string label, std::string path, int fd, FileIdentity id, std::uint64_t size);
  std::string label_, path_;
  int fd_ = -1;
  FileIdentity identity_;
  std::uint64_t size_ = 0;
};

// A text input: InputFile::open(label, path).read_all(max_bytes), refused
// when it holds a NUL byte (no text file does: a damaged file, or a binary
// file given by mistake).
std::string read_input_file(const std::string& label, const std::string& path,
                            std::uint64_t max_bytes = kMaxTextInputBytes);

// ---- Outputs --------------------------------------------------------------

// Which existing regular files an output may replace (with --force).
enum class OwnFile {
  Hdf5,      // an HDF5 file (its signature), or an empty file
  Text,      // a text file (no NUL byte in its first 4 KiB), or an empty file
  Png,       // a PNG image (its signature), or an empty file
};

struct OutputRules {
  std::string label;                // the option as the user spelled it: "--out", "bwreport export --csv"
  bool force = false;               // an existing file of ours may be replaced
  std::vector<std::string> inputs;  // the files the command reads: never an output
  OwnFile own = OwnFile::Text;
};

// Checks `path` as an output without writing anything: UsageError when it
// is not a regular file or a new name in an existing directory, is one of
// the inputs, exists without rules.force, or is not recognisably ours.
void check_output_file(const std::string& path, const OutputRules& rules);

// UsageError when `path` names one of `inputs` (device and inode; for a
// path that does not exist yet, the same absolute name).
void refuse_input_as_output(const std::string& label, const std::string& path, const std::vector<std::string>& inputs);

// A file written at once: check_output_file() first, then a fresh scratch
// file beside the target ("<dir>/.<name>.XXXXXX", mode 0644 less the umask);
// commit() flushes, syncs, checks the target again and renames the scratch
// file onto it. Destroyed without commit(), the scratch file goes and the
// target is untouched.
class AtomicFile {
 public:
  AtomicFile(std::string path, OutputRules rules);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  std::ostream& stream();  // text goes here (or through write())
  void write(std::string_view bytes);
  // For a library that writes by name (HDF5): write to this path instead
  // of stream(); it exists (empty) until commit().
  const std::string& scratch_path() const { return scratch_; }
  const std::string& path() const { return path_; }
  void commit();  // RuntimeFailure "<label>: cannot write '<path>': <why>" on a write error

 private:
  struct Stream;
  std::string path_, scratch_;
  OutputRules rules_;
  std::unique_ptr<Stream> out_;
  bool committed_ = false;
};

// A set of files written at once (an export): they are written into a
// fresh scratch directory (hidden, inside `dir`, which is made when missing),
// and commit() moves each onto dir/name: a failed export leaves nothing
// behind, not even the directory it made. A file of `dir` with the same name
// is replaced only with rules.force and only when it is a regular file of
// ours (never an input, a link or a device).
class AtomicDirectory {
 public:
  AtomicDirectory(std::string dir, OutputRules rules);
  AtomicDirectory(const AtomicDirectory&) = delete;
  AtomicDirectory& operator=(const AtomicDirectory&) = delete;
  ~AtomicDirectory();

  // A new file `name` (one path component); dir/name is checked as an
  // output first. Text goes to the stream returned.
  std::ostream& add(const std::string& name);
  const std::string& dir() const { return dir_; }
  void commit();  // RuntimeFailure naming the file on a write error

 private:
  struct Entry;
  std::string dir_, scratch_;
  OutputRules rules_;
  std::vector<std::unique_ptr<Entry>> entries_;
  bool made_dir_ = false;
  bool committed_ = false;
};

// A fresh folder inside the existing directory `dir` (".bwsurvey-scratch.
// XXXXXX", mkdtemp: an unpredictable name) for files that a library or
// another program writes by name and that are then read, copied or moved
// elsewhere (bwreport plot hands the report its change points this way).
// Destroyed, it removes the files named through file() and then itself,
// only when empty: nothing it did not make is ever removed.
class ScratchDirectory {
 public:
  ScratchDirectory(const std::string& dir, const std::string& label);  // UsageError when it cannot be made
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory();

  // The path of a new file `name` (one path component) in the folder.
  std::string file(const std::string& name);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::string> names_;
};

}  // namespace bws

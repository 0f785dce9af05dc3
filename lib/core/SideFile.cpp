#include "core/SideFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/FileIdentity.hpp"
#include "core/OptionText.hpp"

namespace bws {
namespace {

std::string text_or_empty(const Config& config, const char* key) { return config.has(key) ? config.get(key) : ""; }

}  // namespace

void check_side_file(const std::string& flag, const std::string& path, const Config& config) {
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  std::error_code error;
  if (!fs::is_directory(directory, error) || ::access(directory.c_str(), W_OK) != 0)
    throw UsageError(flag + ": cannot write " + quoted_input(path, kMaxQuotedPathChars) + ": directory " +
                     quoted_input(directory, kMaxQuotedPathChars) +
                     " is missing or not writable; allowed: a file in an existing, writable directory");
  const std::string resume = text_or_empty(config, "resume");
  const std::string result = resume.empty() ? text_or_empty(config, "out") : resume;
  if (!result.empty() && same_file(path, result))
    throw UsageError(flag + ": " + quoted_input(path, kMaxQuotedPathChars) +
                     " is the survey's result file; allowed: another file");
  OutputRules rules{flag, config.has("force") && config.flag("force"), {}, OwnFile::Text};
  for (const char* input : {"config", "reference"})
    if (const std::string input_path = text_or_empty(config, input); !input_path.empty())
      rules.inputs.push_back(input_path);
  // A fresh run replaces the file (--force), a resume appends to it: in
  // both it must be a regular text file of ours, never a device, a FIFO or
  // a link; and so must the staging file that start() removes.
  if (!resume.empty()) rules.force = true;
  check_output_file(path, rules);
  rules.force = true;
  check_output_file(path + ".part", rules);
}

SideFile::SideFile(std::string flag, std::string path) : flag_(std::move(flag)), path_(std::move(path)) {}

void SideFile::fail(const std::string& what) const {
  throw RuntimeFailure(flag_ + ": cannot " + what + ": " + std::strerror(errno));
}

void SideFile::start(ExportStart how) {
  // Checked again here: a file of a pattern (%h, %r) is first named now, and
  // nothing but a regular text file of ours is ever truncated or removed.
  const OutputRules rules{flag_, true, {}, OwnFile::Text};
  check_output_file(path_, rules);
  check_output_file(staging_path(), rules);
  if (path_kind(staging_path(), false) == PathKind::Regular && ::unlink(staging_path().c_str()) != 0)
    fail("remove '" + staging_path() + "'");  // a cut-off phase's lines: measured again now
  const int fd = ::open(path_.c_str(),
                        O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | (how == ExportStart::Fresh ? O_TRUNC : O_APPEND),
                        0666);
  if (fd < 0) fail("write '" + path_ + "'");
  ::close(fd);
}

void SideFile::write_line(const std::string& line) {
  if (!staging_.is_open()) {
    staging_.open(staging_path(), staged_ ? std::ios::app : std::ios::trunc);
    if (!staging_) fail("write '" + staging_path() + "'");
    staged_ = true;
  }
  staging_ << line << '\n';
  staging_.flush();
  if (!staging_) fail("write '" + staging_path() + "'");
}

void SideFile::close_staging() {
  if (!staging_.is_open()) return;
  staging_.close();
  if (!staging_) fail("write '" + staging_path() + "'");
}

void SideFile::finish(bool complete) {
  if (!staged_) return;  // nothing was written
  staged_ = false;
  close_staging();
  if (!complete) return;
  {
    std::ifstream staged(staging_path(), std::ios::binary);
    std::ofstream file(path_, std::ios::app | std::ios::binary);
    if (!staged || !file) fail("append to '" + path_ + "'");
    file << staged.rdbuf();
    file.flush();
    if (!file) fail("append to '" + path_ + "'");
  }
  std::error_code error;
  std::filesystem::remove(staging_path(), error);
}

}  // namespace bws

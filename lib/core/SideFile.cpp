#include "core/SideFile.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "core/Errors.hpp"
#include "core/FileIdentity.hpp"

namespace bws {
namespace {

std::string text_or_empty(const Config& config, const char* key) { return config.has(key) ? config.get(key) : ""; }

}  // namespace

void check_side_file(const std::string& flag, const std::string& path, const Config& config) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_directory(path, error))
    throw UsageError(flag + ": '" + path + "' is a directory; allowed: a file name");
  const fs::path parent = fs::path(path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  if (!fs::is_directory(directory, error) || ::access(directory.c_str(), W_OK) != 0)
    throw UsageError(flag + ": cannot write '" + path + "': directory '" + directory +
                     "' is missing or not writable; allowed: a file in an existing, writable directory");
  const std::string resume = text_or_empty(config, "resume");
  const std::string result = resume.empty() ? text_or_empty(config, "out") : resume;
  if (!result.empty() && same_file(path, result))
    throw UsageError(flag + ": '" + path + "' is the survey's result file; allowed: another file");
  for (const char* input : {"config", "reference"}) {
    const std::string input_path = text_or_empty(config, input);
    if (!input_path.empty() && same_file(path, input_path))
      throw UsageError(flag + ": '" + path + "' is the --" + input + " file; allowed: a file that is no input");
  }
  const bool force = config.has("force") && config.flag("force");
  if (resume.empty() && fs::exists(path, error) && !force)
    throw UsageError(flag + ": '" + path + "' exists; allowed: a new file, or --force to overwrite");
}

SideFile::SideFile(std::string flag, std::string path) : flag_(std::move(flag)), path_(std::move(path)) {}

void SideFile::fail(const std::string& what) const {
  throw RuntimeFailure(flag_ + ": cannot " + what + ": " + std::strerror(errno));
}

void SideFile::start(ExportStart how) {
  std::error_code error;
  std::filesystem::remove(staging_path(), error);  // a cut-off phase's lines: measured again now
  std::ofstream file(path_, how == ExportStart::Fresh ? std::ios::trunc : std::ios::app);
  if (!file) fail("write '" + path_ + "'");
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

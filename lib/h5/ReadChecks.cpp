#include "h5/ReadChecks.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <limits>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "h5/Failure.hpp"
#include "h5/Handles.hpp"

namespace bws::h5 {

namespace {

// Small reads are allowed whatever the storage says: a table created with
// no rows, or a dataset whose chunks hold only fill values.
constexpr std::uint64_t kSmallReadBytes = std::uint64_t{4} << 20;
// When neither the machine nor a limit says (sysconf fails).
constexpr std::uint64_t kAssumedMemoryBytes = std::uint64_t{4} << 30;

std::string file_name(hid_t context) {
  if (context < 0) return "?";
  const ssize_t length = H5Fget_name(context, nullptr, 0);
  if (length <= 0) {
    clear_hdf5_errors();
    return "?";
  }
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Fget_name(context, name.data(), name.size());
  name.resize(static_cast<std::size_t>(length));
  return name;
}

std::uint64_t soft_limit(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::numeric_limits<std::uint64_t>::max();
  return limit.rlim_cur;
}

bool fits(std::uint64_t count, std::uint64_t bytes_each, std::uint64_t limit) {
  return bytes_each == 0 || count <= limit / bytes_each;
}

std::string declared(std::uint64_t count, std::uint64_t bytes_each, const std::string& what) {
  return "declares " + std::to_string(count) + " " + what + " of " + std::to_string(bytes_each) + " bytes, more than ";
}

}  // namespace

void bad_input(hid_t context, const std::string& object, const std::string& problem) {
  clear_hdf5_errors();
  std::string line = "'";  // appended, not "'" + ...: GCC 12 warns falsely (-Wrestrict) on that
  line += printable_text(file_name(context), 200);
  line += "': ";
  line += printable_text(object, 300);
  line += ": ";
  line += printable_text(problem, 300);
  throw UsageError(line);
}

std::uint64_t usable_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  const std::uint64_t physical = pages > 0 && page_bytes > 0
                                     ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_bytes)
                                     : kAssumedMemoryBytes;
  return std::min({physical, soft_limit(RLIMIT_AS), soft_limit(RLIMIT_DATA)});
}

std::string ReadBudget::limit_text() const {
  if (read_bytes_ <= file_left_) return std::to_string(read_bytes_) + " bytes, a quarter of the usable memory";
  return std::to_string(file_left_) + " bytes left of the usable memory all reads of one file may use";
}

ReadMeter::ReadMeter(ReadBudget& budget, hid_t context, std::string object)
    : budget_(budget),
      context_(context),
      object_(std::move(object)),
      limit_(budget.read_limit_bytes()),
      limit_text_(budget.limit_text()) {}

void ReadMeter::admit(std::uint64_t count, std::uint64_t bytes_each, const std::string& what) {
  if (!fits(count, bytes_each, limit_ - admitted_))
    bad_input(context_, object_,
              declared(count, bytes_each, what) + "one read may bring into memory (" + limit_text_ + ")");
  admitted_ += count * bytes_each;
}

void ReadMeter::add(std::uint64_t bytes) {
  if (bytes > limit_ - read_)
    bad_input(context_, object_, "holds more than one read may bring into memory (" + limit_text_ + ")");
  read_ += bytes;
  budget_.spend(bytes);
}

std::uint64_t stored_bytes_bound(hid_t file, hid_t dataset) {
  const hid_t dcpl = H5Dget_create_plist(dataset);
  const int filters = dcpl >= 0 ? H5Pget_nfilters(dcpl) : -1;
  if (dcpl >= 0) H5Pclose(dcpl);
  clear_hdf5_errors();
  if (filters != 0) return std::numeric_limits<std::uint64_t>::max();  // filtered, or unknown
  std::uint64_t stored = H5Dget_storage_size(dataset);  // 0 also on an error
  hsize_t file_size = 0;
  if (H5Fget_filesize(file, &file_size) < 0) file_size = 0;
  clear_hdf5_errors();
  return std::max(std::min<std::uint64_t>(stored, file_size), kSmallReadBytes);
}

void check_stored_size(hid_t file, hid_t dataset, const std::string& object, std::uint64_t count,
                       std::uint64_t bytes_each, const std::string& what) {
  const std::uint64_t bound = stored_bytes_bound(file, dataset);
  if (fits(count, bytes_each, bound)) return;
  bad_input(file, object,
            declared(count, bytes_each, what) + "the file stores for it (" + std::to_string(bound) + " bytes readable)");
}

void check_read_size(hid_t context, const std::string& object, std::uint64_t count, std::uint64_t bytes_each,
                     std::uint64_t limit, const std::string& what) {
  if (fits(count, bytes_each, limit)) return;
  bad_input(context, object, declared(count, bytes_each, what) + std::to_string(limit) + " bytes readable");
}

std::string type_class_noun(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: return "an integer";
    case H5T_FLOAT: return "a float";
    case H5T_STRING: return "a string";
    case H5T_TIME: return "a time";
    case H5T_BITFIELD: return "a bitfield";
    case H5T_OPAQUE: return "an opaque type";
    case H5T_COMPOUND: return "a compound";
    case H5T_REFERENCE: return "a reference";
    case H5T_ENUM: return "an enum";
    case H5T_VLEN: return "a variable-length sequence";
    case H5T_ARRAY: return "an array";
    default: clear_hdf5_errors(); return "an unknown type";
  }
}

}  // namespace bws::h5

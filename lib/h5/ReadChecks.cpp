#include "h5/ReadChecks.hpp"

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
constexpr std::uint64_t kFilteredExpansion = 16;

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

}  // namespace

void bad_input(hid_t context, const std::string& object, const std::string& problem) {
  clear_hdf5_errors();
  throw UsageError("'" + printable_text(file_name(context), 200) + "': " + printable_text(object, 300) + ": " +
                   printable_text(problem, 300));
}

std::uint64_t readable_bytes(hid_t file, hid_t dataset) {
  std::uint64_t stored = H5Dget_storage_size(dataset);  // 0 also on an error
  hsize_t file_size = 0;
  if (H5Fget_filesize(file, &file_size) < 0) file_size = 0;
  clear_hdf5_errors();
  stored = std::min<std::uint64_t>(stored, file_size);
  const hid_t dcpl = H5Dget_create_plist(dataset);
  if (dcpl >= 0) {
    if (H5Pget_nfilters(dcpl) > 0) stored = stored > std::numeric_limits<std::uint64_t>::max() / kFilteredExpansion
                                                ? std::numeric_limits<std::uint64_t>::max()
                                                : stored * kFilteredExpansion;
    H5Pclose(dcpl);
  }
  clear_hdf5_errors();
  return std::max(stored, kSmallReadBytes);
}

void check_read_size(hid_t context, const std::string& object, std::uint64_t count, std::uint64_t bytes_each,
                     std::uint64_t limit, const std::string& what) {
  if (bytes_each == 0 || count <= limit / bytes_each) return;
  bad_input(context, object,
            "declares " + std::to_string(count) + " " + what + " of " + std::to_string(bytes_each) +
                " bytes, more than the file stores for it (" + std::to_string(limit) + " bytes readable)");
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

#include "h5/Strings.hpp"

#include <algorithm>
#include <cstring>

#include "h5/Failure.hpp"
#include "h5/ReadChecks.hpp"

namespace bws::h5 {

Handle variable_utf8_type() {
  Handle type = checked_handle(H5Tcopy(H5T_C_S1), H5Tclose, H5I_INVALID_HID, "copy", "string type");
  checked(H5Tset_size(type.id(), H5T_VARIABLE), H5I_INVALID_HID, "size", "string type");
  checked(H5Tset_cset(type.id(), H5T_CSET_UTF8), H5I_INVALID_HID, "set encoding of", "string type");
  return type;
}

Handle fixed_utf8_type(std::size_t width) {
  Handle type = checked_handle(H5Tcopy(H5T_C_S1), H5Tclose, H5I_INVALID_HID, "copy", "string type");
  checked(H5Tset_size(type.id(), width), H5I_INVALID_HID, "size", "string type");
  checked(H5Tset_strpad(type.id(), H5T_STR_NULLTERM), H5I_INVALID_HID, "set padding of", "string type");
  checked(H5Tset_cset(type.id(), H5T_CSET_UTF8), H5I_INVALID_HID, "set encoding of", "string type");
  return type;
}

std::string_view truncate_utf8(std::string_view text, std::size_t width) {
  if (text.size() <= width) return text;
  std::size_t cut = width;
  // text[cut] is the first byte left out: while it continues a sequence
  // (10xxxxxx), the sequence it belongs to would be split.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

std::string fixed_cell_text(const char* cell, std::size_t size, H5T_str_t padding) {
  if (padding == H5T_STR_SPACEPAD) {
    std::size_t length = size;
    while (length > 0 && cell[length - 1] == ' ') --length;
    return std::string(cell, length);
  }
  const void* nul = std::memchr(cell, '\0', size);
  return std::string(cell, nul != nullptr ? static_cast<const char*>(nul) - cell : size);
}

std::vector<std::string> read_strings(hid_t stored_type, hid_t space, const StringRead& read, hid_t context,
                                      const std::string& object, std::uint64_t max_bytes) {
  if (H5Tget_class(stored_type) != H5T_STRING)
    bad_input(context, object, "holds " + type_class_noun(stored_type) + " where text belongs (docs/hdf5-schema.md)");
  const hssize_t points = H5Sget_simple_extent_npoints(space);
  if (points < 0) fail(context, "size", object);
  const auto count = static_cast<std::size_t>(points);
  std::vector<std::string> values;
  values.reserve(count);

  const htri_t variable = H5Tis_variable_str(stored_type);
  if (variable < 0) fail(context, "inspect the string type of", object);
  const std::size_t cell_bytes = variable > 0 ? sizeof(char*) : H5Tget_size(stored_type);
  check_read_size(context, object, count, std::max<std::size_t>(cell_bytes, 1), max_bytes, "text elements");
  if (variable > 0) {
    Handle memory_type = variable_utf8_type();
    // Read back in the stored encoding: HDF5 does not convert between ASCII and UTF-8.
    checked(H5Tset_cset(memory_type.id(), H5Tget_cset(stored_type)), context, "set encoding for", object);
    std::vector<char*> pointers(count, nullptr);
    checked(read(memory_type.id(), pointers.data()), context, "read", object);
    for (char* text : pointers) values.emplace_back(text != nullptr ? text : "");
    H5Dvlen_reclaim(memory_type.id(), space, H5P_DEFAULT, pointers.data());
    return values;
  }

  const std::size_t size = H5Tget_size(stored_type);
  const auto padding = H5Tget_strpad(stored_type);
  Handle memory_type = checked_handle(H5Tcopy(stored_type), H5Tclose, context, "copy the type of", object);
  std::vector<char> buffer(std::max<std::size_t>(count * size, 1));
  checked(read(memory_type.id(), buffer.data()), context, "read", object);
  for (std::size_t i = 0; i < count; ++i) values.push_back(fixed_cell_text(buffer.data() + i * size, size, padding));
  return values;
}

}  // namespace bws::h5

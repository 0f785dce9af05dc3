#pragma once
// String types and string I/O. Attributes, units and text datasets are
// variable-length UTF-8 (h5py gives str, any length fits); table cells are
// fixed-width so a row is a flat compound record numpy can map.
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "h5/Handles.hpp"

namespace bws::h5 {

Handle variable_utf8_type();
// `width` bytes, NUL-terminated: a cell holds up to width - 1 bytes of text.
// (h5dump prints such cells up to the NUL; zero-padded ones it prints with
// every padding byte as "\000". h5py reads both as numpy "S<width>".)
Handle fixed_utf8_type(std::size_t width);

// The longest prefix of `text` of at most `width` bytes that does not end
// inside a UTF-8 multi-byte sequence.
std::string_view truncate_utf8(std::string_view text, std::size_t width);

// Reads all elements of a string attribute or dataset, fixed or variable
// length. `read(memory_type, buffer)` is H5Aread or H5Dread bound to the object.
// `object` names it in messages ("attribute '/@status'", "dataset '/config'").
// A stored type that is not a string, or a buffer of more than `max_bytes`
// (elements x cell size), is a bad input file (UsageError, h5/ReadChecks.hpp).
using StringRead = std::function<herr_t(hid_t memory_type, void* buffer)>;
std::vector<std::string> read_strings(hid_t stored_type, hid_t space, const StringRead& read, hid_t context,
                                      const std::string& object, std::uint64_t max_bytes);

// A fixed-size string cell as text: up to the first NUL (or without the
// trailing blanks of a space-padded type).
std::string fixed_cell_text(const char* cell, std::size_t size, H5T_str_t padding);

}  // namespace bws::h5

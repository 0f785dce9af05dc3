#pragma once
// Edits of an open result file that --resume and the merged-file commands
// need: the row count of every appendable dataset (to mark where a phase
// began), shrinking them back to such a mark (to drop the rows of a phase
// that never finished), and copying another file whole into a group.
#include <hdf5.h>

#include <cstdint>
#include <map>
#include <string>

namespace bws::h5 {

// Absolute path -> first-dimension length of every chunked dataset with an
// unlimited first dimension (tables and samples datasets).
std::map<std::string, std::uint64_t> appendable_lengths(hid_t file);

// Shrinks every appendable dataset to its length in `lengths` (never grows
// one) and deletes the appendable datasets that are not in it.
void truncate_appendables(hid_t file, const std::map<std::string, std::uint64_t>& lengths);

// Copies the root group of the file at `source` (every object and the root's
// attributes) to the new group `group` of `file`; tables' `samples`
// attributes are made to name the copies.
void copy_file_into_group(hid_t file, const std::string& source, const std::string& group);

}  // namespace bws::h5

#pragma once
// Finding, opening and making groups and datasets by absolute path.
#include <hdf5.h>

#include <string>

#include "h5/Handles.hpp"

namespace bws::h5 {

// True when every link along `path` exists and the last one resolves to an
// object; "/" always exists.
bool object_exists(hid_t file, const std::string& path);

// Opens the group or dataset at `path` (RuntimeFailure when missing).
Handle open_object(hid_t file, const std::string& path);

// Opens `path`, creating it and any missing parents as groups when absent.
Handle open_or_create_group(hid_t file, const std::string& path);

// A link creation property list that creates missing parent groups, for
// H5Dcreate2 and H5Gcreate2.
Handle intermediate_groups_lcpl(hid_t file);

// Removes the link at `path` if there is one (to replace a dataset).
void remove_link_if_present(hid_t file, const std::string& path);

// The path HDF5 knows an open object by (for messages).
std::string name_of(hid_t object);

}  // namespace bws::h5

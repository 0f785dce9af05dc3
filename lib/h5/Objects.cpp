#include "h5/Objects.hpp"

#include "h5/Failure.hpp"
#include "h5/Paths.hpp"

namespace bws::h5 {

namespace {

// Checked link by link: H5Lexists fails (rather than answering false) when an
// intermediate group is missing, and a negative answer (the parent is a
// dataset) is a "no" too.
bool link_exists(hid_t file, const std::string& path) {
  std::string prefix;
  for (const std::string& name : path_components(path)) {
    prefix += "/" + name;
    if (H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) {
      clear_hdf5_errors();
      return false;
    }
  }
  return true;
}

}  // namespace

bool object_exists(hid_t file, const std::string& path) {
  const std::string absolute = absolute_path(path);
  if (absolute == "/") return true;
  if (!link_exists(file, absolute)) return false;
  // A dangling soft link exists as a link but not as an object.
  const htri_t resolves = H5Oexists_by_name(file, absolute.c_str(), H5P_DEFAULT);
  if (resolves < 0) clear_hdf5_errors();
  return resolves > 0;
}

Handle open_object(hid_t file, const std::string& path) {
  return checked_handle(H5Oopen(file, path.c_str(), H5P_DEFAULT), H5Oclose, file, "open", path);
}

Handle intermediate_groups_lcpl(hid_t file) {
  Handle lcpl = checked_handle(H5Pcreate(H5P_LINK_CREATE), H5Pclose, file, "make a link property list for", "/");
  checked(H5Pset_create_intermediate_group(lcpl.id(), 1), file, "set intermediate groups for", "/");
  // Object names are UTF-8 (hostnames, kernel names are ASCII anyway).
  checked(H5Pset_char_encoding(lcpl.id(), H5T_CSET_UTF8), file, "set link encoding for", "/");
  return lcpl;
}

Handle open_or_create_group(hid_t file, const std::string& path) {
  if (object_exists(file, path)) return open_object(file, path);
  const Handle lcpl = intermediate_groups_lcpl(file);
  return checked_handle(H5Gcreate2(file, path.c_str(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT), H5Gclose, file,
                        "create group", path);
}

void remove_link_if_present(hid_t file, const std::string& path) {
  const std::string absolute = absolute_path(path);
  if (absolute == "/" || !link_exists(file, absolute)) return;
  checked(H5Ldelete(file, absolute.c_str(), H5P_DEFAULT), file, "delete", absolute);
}

std::string name_of(hid_t object) {
  const ssize_t length = H5Iget_name(object, nullptr, 0);
  if (length <= 0) {
    clear_hdf5_errors();
    return "?";
  }
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Iget_name(object, name.data(), name.size());
  name.resize(static_cast<std::size_t>(length));
  return name;
}

}  // namespace bws::h5

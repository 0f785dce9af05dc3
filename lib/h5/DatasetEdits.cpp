#include "h5/DatasetEdits.hpp"

#include <vector>

#include "core/Errors.hpp"
#include "h5/Attributes.hpp"
#include "h5/Failure.hpp"
#include "h5/Handles.hpp"
#include "h5/Objects.hpp"
#include "h5/Paths.hpp"
#include "h5/TableDataset.hpp"

namespace bws::h5 {
namespace {

herr_t collect_link(hid_t, const char* name, const H5L_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->push_back(std::string("/") + name);
  return 0;
}

// The first dimension's length when `path` is an appendable dataset.
bool appendable_length(hid_t file, const std::string& path, std::uint64_t& length) {
  const Handle object = open_object(file, path);
  if (H5Iget_type(object.id()) != H5I_DATASET) return false;
  const Handle space = checked_handle(H5Dget_space(object.id()), H5Sclose, file, "get the shape of", path);
  const int rank = H5Sget_simple_extent_ndims(space.id());
  if (rank < 1 || rank > 2) return false;
  hsize_t dims[2] = {0, 0}, maxdims[2] = {0, 0};
  checked(H5Sget_simple_extent_dims(space.id(), dims, maxdims), file, "get the shape of", path);
  if (maxdims[0] != H5S_UNLIMITED) return false;
  length = dims[0];
  return true;
}

}  // namespace

std::map<std::string, std::uint64_t> appendable_lengths(hid_t file) {
  std::vector<std::string> paths;
  checked(H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, collect_link, &paths), file, "list the objects of", "/");
  std::map<std::string, std::uint64_t> lengths;
  for (const std::string& p : paths) {
    std::uint64_t length = 0;
    if (appendable_length(file, p, length)) lengths[p] = length;
  }
  return lengths;
}

void truncate_appendables(hid_t file, const std::map<std::string, std::uint64_t>& lengths) {
  for (const auto& [path, now] : appendable_lengths(file)) {
    const auto keep = lengths.find(path);
    if (keep == lengths.end()) {
      remove_link_if_present(file, path);
      continue;
    }
    if (keep->second >= now) continue;
    const Handle dataset = open_object(file, path);
    const Handle space = checked_handle(H5Dget_space(dataset.id()), H5Sclose, file, "get the shape of", path);
    hsize_t dims[2] = {0, 0};
    checked(H5Sget_simple_extent_dims(space.id(), dims, nullptr), file, "get the shape of", path);
    dims[0] = keep->second;
    checked(H5Dset_extent(dataset.id(), dims), file, "shrink", path);
  }
}

void copy_file_into_group(hid_t file, const std::string& source, const std::string& group) {
  const Handle src = checked_handle(H5Fopen(source.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, file, "open",
                                    source);
  const Handle lcpl = intermediate_groups_lcpl(file);
  const std::string target = absolute_path(group);
  checked(H5Ocopy(src.id(), ".", file, target.c_str(), H5P_DEFAULT, lcpl.id()), file,
          "copy '" + source + "' into", target);
  // A table names its samples dataset by absolute path: move that under the group too.
  const Handle copied = open_object(file, target);
  std::vector<std::string> links;
  checked(H5Lvisit(copied.id(), H5_INDEX_NAME, H5_ITER_INC, collect_link, &links), file, "list the objects of", target);
  for (const std::string& link : links) {
    const Handle object = open_object(file, target + link);
    if (H5Iget_type(object.id()) != H5I_DATASET || !has_attribute(object.id(), kSamplesAttribute)) continue;
    write_attribute(object.id(), kSamplesAttribute, target + read_text_attribute(object.id(), kSamplesAttribute));
  }
}

}  // namespace bws::h5

#pragma once
// Object paths inside the file. Tables name themselves without the leading
// "/" ("stream/results"); HDF5 wants absolute paths. Everything in h5/ works
// with the absolute form and converts at the edges.
#include <string>
#include <string_view>
#include <vector>

namespace bws::h5 {

// "/" + path with repeated and trailing slashes removed; "" and "/" give "/".
std::string absolute_path(std::string_view path);
// The same without the leading "/" (the form Table::path() uses); "/" gives "".
std::string relative_path(std::string_view path);
// The names along an absolute path: "/a/b" -> {"a", "b"}; "/" -> {}.
std::vector<std::string> path_components(std::string_view path);

}  // namespace bws::h5

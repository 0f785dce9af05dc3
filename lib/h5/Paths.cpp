#include "h5/Paths.hpp"

namespace bws::h5 {

std::vector<std::string> path_components(std::string_view path) {
  std::vector<std::string> names;
  std::size_t begin = 0;
  while (begin < path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string_view::npos) end = path.size();
    if (end > begin) names.emplace_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return names;
}

std::string absolute_path(std::string_view path) {
  std::string result;
  for (const std::string& name : path_components(path)) result += "/" + name;
  return result.empty() ? "/" : result;
}

std::string relative_path(std::string_view path) { return absolute_path(path).substr(1); }

}  // namespace bws::h5

#pragma once
// Small text helpers the run's collaborators share: comma lists of names
// (phases, hosts) and one-line messages.
#include <algorithm>
#include <string>
#include <vector>

namespace bws::run {

// "a,b,c"
inline std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& i : items) text += (text.empty() ? "" : ",") + i;
  return text;
}

inline bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// A message on one line (HDF5's details can carry newlines).
inline std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace bws::run

#pragma once
// The terminal summary rebuilt from a survey file: run attributes, then each
// benchmark's report over its node-level table ("<test>/nodes").
#include <string>
#include <vector>

namespace bws::survey {

std::vector<std::string> summarize_file(const std::string& path);

}  // namespace bws::survey

#include "core/BackendList.hpp"

#include <algorithm>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws {

OptionSpec backend_list_option(const std::string& name, const std::string& label, const std::string& device_note) {
  return text_option(name, kBackendDefault,
                     label + ": where it runs, a comma list of backends, each in turn into the one table (its backend "
                             "column): cpu (the rank's pinned threads), ocl (the rank's OpenCL device, " +
                         device_note + ")");
}

std::vector<std::string> parse_backend_list(const std::string& text, const std::string& flag,
                                            const std::vector<std::string>& known) {
  std::string allowed;
  for (const std::string& k : known) allowed += (allowed.empty() ? "" : ", ") + k;
  std::vector<std::string> names;
  for (const std::string& item : split_comma_list(text)) {
    const std::string name = lower_text(trim_text(item));
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw UsageError(flag + ": unknown backend " + quoted_input(item) + "; allowed: a comma list of " +
                       allowed);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.empty()) throw UsageError(flag + ": no backend given; allowed: a comma list of " + allowed);
  return names;
}

}  // namespace bws

#include "core/OptionAliases.hpp"

#include <memory>
#include <utility>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/value_semantic.hpp>

namespace po = boost::program_options;

namespace bws {
namespace {

// A text value that knows the option it is an old name of.
class AliasValue : public po::typed_value<std::string> {
 public:
  explicit AliasValue(std::string new_name) : po::typed_value<std::string>(nullptr), new_name_(std::move(new_name)) {}
  const std::string& new_name() const { return new_name_; }

 private:
  std::string new_name_;
};

}  // namespace

std::string deprecation_line(const Deprecation& d) { return d.old_text + " is deprecated: use " + d.use; }

void add_alias_option(po::options_description& desc, const std::string& old_name, const std::string& new_name,
                      const std::string& help, const char* default_text, bool flag) {
  auto* value = new AliasValue(new_name);  // owned by desc from here on
  if (default_text) value->default_value(default_text);
  if (flag) value->implicit_value("on");
  desc.add_options()(old_name.c_str(), value, help.c_str());
}

std::vector<Deprecation> alias_deprecations(const po::options_description& desc,
                                            const std::set<std::string, std::less<>>& given_keys) {
  std::vector<Deprecation> out;
  for (const auto& option : desc.options()) {
    const auto* alias = dynamic_cast<const AliasValue*>(option->semantic().get());
    if (alias && given_keys.count(option->long_name()))
      out.push_back({"--" + option->long_name(), "--" + alias->new_name()});
  }
  return out;
}

}  // namespace bws

#include "core/CatalogEntry.hpp"

namespace bws {

std::string CatalogEntry::description() const {
  return collective() ? make_collective()->description() : make_benchmark()->description();
}

void CatalogEntry::add_options(boost::program_options::options_description& desc) const {
  if (collective())
    make_collective()->add_options(desc);
  else
    make_benchmark()->add_options(desc);
}

}  // namespace bws

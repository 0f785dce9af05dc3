#pragma once
// STREAM's entry in the catalog (core/CatalogEntry.hpp).
#include <string>
#include <vector>

#include "core/CatalogEntry.hpp"

namespace bws::stream {

CatalogEntry catalog_entry();

// "double", "float": the texts of the type column (the node metrics' groups).
std::vector<std::string> type_names();

}  // namespace bws::stream

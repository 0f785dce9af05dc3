#pragma once
// The link map's entry in the catalog (core/CatalogEntry.hpp).
#include "core/CatalogEntry.hpp"

namespace bws::links {

CatalogEntry catalog_entry();

}  // namespace bws::links

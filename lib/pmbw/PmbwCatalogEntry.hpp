#pragma once
// pmbw's entry in the catalog (core/CatalogEntry.hpp).
#include "core/CatalogEntry.hpp"

namespace bws::pmbw {

CatalogEntry catalog_entry();

}  // namespace bws::pmbw

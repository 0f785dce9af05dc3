#pragma once
// The roofline's entry in the catalog (core/CatalogEntry.hpp).
#include "core/CatalogEntry.hpp"

namespace bws::roofline {

CatalogEntry catalog_entry();

}  // namespace bws::roofline

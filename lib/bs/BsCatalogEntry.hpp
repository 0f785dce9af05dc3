#pragma once
// BS1-BS7's entry in the catalog (core/CatalogEntry.hpp).
#include "core/CatalogEntry.hpp"

namespace bws::bs {

CatalogEntry catalog_entry();

}  // namespace bws::bs

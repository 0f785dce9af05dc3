#pragma once
// The OpenCL backend's entry in the catalog (core/CatalogEntry.hpp).
#include "core/CatalogEntry.hpp"

namespace bws::ocl {

CatalogEntry catalog_entry();

}  // namespace bws::ocl

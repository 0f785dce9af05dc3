#pragma once
// BS1-BS7's entry in the catalog (core/CatalogEntry.hpp).
#include "bs/BsDevice.hpp"
#include "core/CatalogEntry.hpp"

namespace bws::bs {

// `backends`: where BS can run (the backend list, lib/backends).
CatalogEntry catalog_entry(BsBackends backends);

}  // namespace bws::bs

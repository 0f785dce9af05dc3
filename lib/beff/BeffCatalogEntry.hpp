#pragma once
// b_eff's entry in the catalog (core/CatalogEntry.hpp).
#include <memory>

#include "core/CatalogEntry.hpp"
#include "core/DeviceBuffers.hpp"

namespace bws::beff {

// device: what opens device buffers for --beff.path device (the catalog
// passes lib/ocl's provider; nullptr in a build without OpenCL).
CatalogEntry catalog_entry(std::shared_ptr<const DeviceBuffersProvider> device);

}  // namespace bws::beff

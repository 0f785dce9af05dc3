#pragma once
// STREAM's entry in the catalog (core/CatalogEntry.hpp).
#include <string>
#include <vector>

#include "core/CatalogEntry.hpp"
#include "stream/StreamDevice.hpp"

namespace bws::stream {

// `backends`: where STREAM can run (the backend list, lib/backends).
CatalogEntry catalog_entry(StreamBackends backends);

// "double", "float": the texts of the type column (the node metrics' groups).
std::vector<std::string> type_names();

}  // namespace bws::stream

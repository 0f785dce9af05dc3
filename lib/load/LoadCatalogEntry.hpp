#pragma once
// The load benchmark's entry in the catalog (core/CatalogEntry.hpp): what
// makes it appear in --tests, the file, the summaries, the flags and
// bwreport, with no change outside this folder but its line in
// lib/catalog/benchmarks.list.
#include "core/CatalogEntry.hpp"

namespace bws::load {

CatalogEntry catalog_entry();

}  // namespace bws::load

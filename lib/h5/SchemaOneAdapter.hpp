#pragma once
// Files of schema 1.x read as schema 2.x: in 1.x the OpenCL device's STREAM
// rows had tables of their own (/ocl/stream/results, /ocl/stream/nodes); in
// 2.x they are rows of /stream/results and /stream/nodes with backend "ocl"
// (docs/hdf5-schema.md). The reader (ResultReader) shows a 1.x file through
// this adapter: the two STREAM tables are the union of the old ones, each
// row given the 2.x columns it lacks (backend "cpu"/"ocl", device "cpu" for
// the CPU's rows, an unknown real as NaN), and the old ocl/stream tables
// are not listed.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/Table.hpp"

namespace bws::h5 {

// Reads a table of the file as it stands, or nullopt when it is absent.
using StoredTableReader = std::function<std::optional<Table>(const std::string& path)>;

// The 2.x table at `path` ("stream/results", "stream/nodes") made from the
// 1.x tables; nullopt for every other path (read as stored).
std::optional<Table> upgraded_schema_one_table(const std::string& path, const StoredTableReader& read);

// Whether a 1.x table path is hidden (its rows are in an upgraded table).
bool hidden_in_schema_one(const std::string& path);
// The 2.x table that holds a hidden table's rows ("stream/results" for
// "ocl/stream/results"); the path itself otherwise.
std::string schema_one_home(const std::string& path);

}  // namespace bws::h5

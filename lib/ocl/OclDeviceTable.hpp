#pragma once
// /ocl/devices: one row per rank, the device it measured on and the
// figures its plan and its rate ceiling came from.
#include <string>

#include "core/Table.hpp"
#include "ocl/OclSelection.hpp"

namespace bws::ocl {

inline constexpr const char* kDevicesPath = "ocl/devices";

Table make_ocl_devices_table();
void add_ocl_device_row(Table& devices, int rank, const std::string& host, int local_rank, const OclChoice& choice,
                        double ceiling_Bps);

}  // namespace bws::ocl

#include "ocl/OclSelection.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {
namespace {

bool contains_folded(const std::string& haystack, const std::string& needle) {
  return lower_text(haystack).find(lower_text(needle)) != std::string::npos;
}

std::string platform_names(const std::vector<OclPlatformInfo>& platforms) {
  std::string text;
  for (const OclPlatformInfo& p : platforms)
    text += (text.empty() ? "" : ", ") + std::to_string(p.index) + " '" + p.name + "'";
  return text;
}

std::string device_names(const OclPlatformInfo& platform) {
  std::string text;
  for (const OclDeviceInfo& d : platform.devices)
    text += (text.empty() ? "" : ", ") + std::to_string(d.device_index) + " '" + d.name + "'";
  return text.empty() ? "none" : text;
}

const OclPlatformInfo& choose_platform(const std::vector<OclPlatformInfo>& platforms, const OclPick& pick,
                                       const std::string& key) {
  if (platforms.empty())
    throw UsageError(key + ": no OpenCL platform found (no ICD is installed or none loads; Debian: apt-get install "
                           "pocl-opencl-icd for the CPU, or the vendor's ICD)");
  const std::string allowed = "; allowed: auto, an index or a name substring of " + platform_names(platforms);
  const std::string& t = pick.text;
  if (pick.is_auto) {
    for (const OclPlatformInfo& p : platforms)
      if (!p.devices.empty()) return p;
    throw UsageError(key + " auto: no platform has a device" + allowed);
  }
  if (pick.index) {
    if (*pick.index >= platforms.size()) throw UsageError(key + ": " + t + " is out of range" + allowed);
    return platforms[*pick.index];
  }
  std::vector<const OclPlatformInfo*> matches;
  for (const OclPlatformInfo& p : platforms)
    if (contains_folded(p.name, pick.name) || contains_folded(p.vendor, pick.name)) matches.push_back(&p);
  if (matches.empty()) throw UsageError(key + ": no platform matches '" + t + "'" + allowed);
  if (matches.size() > 1) throw UsageError(key + ": '" + t + "' matches " + std::to_string(matches.size()) +
                                           " platforms; give an index" + allowed);
  return *matches.front();
}

}  // namespace

OclChoice choose_device(const std::vector<OclPlatformInfo>& platforms, const OclDeviceOptions& o, int local_rank,
                        int ranks_on_node) {
  const OclPlatformInfo& platform = choose_platform(platforms, o.platform, o.flag(&OclDeviceOptions::platform));
  const std::string key = o.flag(&OclDeviceOptions::device);
  const std::string allowed = "; allowed: auto, an index or a name substring of platform " +
                              std::to_string(platform.index) + "'s devices: " + device_names(platform);
  if (platform.devices.empty())
    throw UsageError(key + ": platform " + std::to_string(platform.index) + " '" + platform.name + "' has no device" +
                     "; choose another with " + o.flag(&OclDeviceOptions::platform) + " (" +
                     o.flag(&OclDeviceOptions::list) + " shows them)");
  std::vector<const OclDeviceInfo*> candidates;
  const std::string& t = o.device.text;
  if (o.device.is_auto) {
    for (const OclDeviceInfo& d : platform.devices) candidates.push_back(&d);
  } else if (o.device.index) {
    if (*o.device.index >= platform.devices.size()) throw UsageError(key + ": " + t + " is out of range" + allowed);
    candidates.push_back(&platform.devices[*o.device.index]);
  } else {
    for (const OclDeviceInfo& d : platform.devices)
      if (contains_folded(d.name, o.device.name)) candidates.push_back(&d);
    if (candidates.empty()) throw UsageError(key + ": no device matches '" + t + "'" + allowed);
  }
  const int count = static_cast<int>(candidates.size());
  const int mine = std::max(0, local_rank) % count;
  OclChoice choice;
  choice.device = *candidates[static_cast<std::size_t>(mine)];
  choice.candidates = count;
  // Ranks r of the node with r % count == mine share this device.
  const int ranks = std::max(1, ranks_on_node);
  choice.ranks_on_device = ranks / count + (mine < ranks % count ? 1 : 0);
  choice.ranks_on_device = std::max(1, choice.ranks_on_device);
  return choice;
}

OclChoice choose_device(const std::vector<OclPlatformInfo>& platforms, const Config& config, int local_rank,
                        int ranks_on_node) {
  return choose_device(platforms, ocl_device_schema().read(config, false), local_rank, ranks_on_node);
}

std::string device_listing(const std::vector<OclPlatformInfo>& platforms) {
  std::string text;
  if (platforms.empty()) return "No OpenCL platform found.\n";
  for (const OclPlatformInfo& p : platforms) {
    text += "platform " + std::to_string(p.index) + ": " + p.name + " (" + p.vendor + ", " + p.version + ")\n";
    if (p.devices.empty()) text += "  (no device)\n";
    for (const OclDeviceInfo& d : p.devices) {
      char line[512];
      std::snprintf(line, sizeof line,
                    "  device %d: %s [%s] %s, %d compute units, %d MHz, global memory %s (largest buffer %s), "
                    "global cache %s, local memory %s, fp64 %s\n",
                    d.device_index, d.name.c_str(), d.type.c_str(), d.version.c_str(), d.compute_units,
                    d.max_clock_mhz, format_bytes(static_cast<double>(d.global_memory_bytes)).c_str(),
                    format_bytes(static_cast<double>(d.max_allocation_bytes)).c_str(),
                    format_bytes(static_cast<double>(d.global_cache_bytes)).c_str(),
                    format_bytes(static_cast<double>(d.local_memory_bytes)).c_str(), d.fp64 ? "yes" : "no");
      text += line;
    }
  }
  text += "Choose with --ocl.platform P --ocl.device D (index or name substring); ranks of a node spread over the "
          "matching devices.\n";
  return text;
}

std::optional<std::string> requested_device_listing(const Config& config) {
  const OclDeviceOptions o = ocl_device_schema().read(config, false);
  if (!o.list) return std::nullopt;
  return device_listing(ocl_platforms(o.flag(&OclDeviceOptions::list)));
}

}  // namespace bws::ocl

// The old spellings of the OpenCL options as aliases: --tests ocl runs
// stream and bs on backend ocl and beff on the device path (as --ocl.tests
// selects); --ocl.elements/ntimes/type set the --stream.* options, and both
// spellings with different values are one usage error.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <map>
#include <string>

#include "backends/LegacyOclAliases.hpp"
#include "bs/BsPlan.hpp"
#include "core/Config.hpp"
#include "ocl/OclRuntime.hpp"
#include "stream/StreamPlan.hpp"

namespace bws::ocl {
namespace {

using test::config_with;
using test::usage_error_of;

TEST(OclAliases, TestsOclRunsStreamAndBsOnTheDeviceAndBeffOnItsPath) {
  if (!ocl_compiled_in()) {
    Config c = config_with({{"tests", "ocl"}});
    EXPECT_EQ(usage_error_of([&] { backends::resolve_legacy_ocl_aliases(c); })
                  .rfind("--tests ocl: this build of bwsurvey has no OpenCL", 0),
              0u);
    return;
  }
  Config c = config_with({{"tests", "ocl"}, {"beff.path", "host"}});
  backends::resolve_legacy_ocl_aliases(c);
  EXPECT_EQ(c.get("tests"), "stream,bs,beff");
  EXPECT_EQ(c.get(stream::kBackendOption), "ocl");
  EXPECT_EQ(c.get("bs.backend"), "ocl");
  EXPECT_EQ(c.get("beff.path"), "device");
  // stream named too: both backends; --ocl.tests picks the parts.
  Config both = config_with({{"tests", "stream,ocl"}, {backends::kOclTestsOption, "stream"}});
  backends::resolve_legacy_ocl_aliases(both);
  EXPECT_EQ(both.get("tests"), "stream");
  EXPECT_EQ(both.get(stream::kBackendOption), "cpu,ocl");
  EXPECT_FALSE(both.has("bs.backend"));
}

TEST(OclAliases, OldOptionNamesSetTheStreamOptionsAndDisagreementIsAUsageError) {
  Config c = config_with({{"ocl.elements", "1M"}, {"ocl.ntimes", "7"}});
  backends::resolve_legacy_ocl_aliases(c);
  EXPECT_EQ(c.get(stream::kElementsOption), "1M");
  EXPECT_EQ(c.get(stream::kNtimesOption), "7");
  Config same = config_with({{"ocl.ntimes", "7"}, {stream::kNtimesOption, "7"}});
  EXPECT_NO_THROW(backends::resolve_legacy_ocl_aliases(same));
  Config clash = config_with({{"ocl.elements", "1M"}, {stream::kElementsOption, "2M"}});
  EXPECT_EQ(usage_error_of([&] { backends::resolve_legacy_ocl_aliases(clash); }),
            "--ocl.elements '1M' and --stream.elements '2M' disagree: --ocl.elements is an alias of "
            "--stream.elements; give one of them");
}

}  // namespace
}  // namespace bws::ocl

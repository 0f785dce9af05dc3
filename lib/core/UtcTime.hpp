#pragma once
// The time stamps a file records (created_utc, finished_utc): written by
// the run and by `bwreport merge`, so it lives below both.
#include <string>

namespace bws {

// Now, as "2024-05-01T12:00:00Z".
std::string utc_now_iso8601();

}  // namespace bws
